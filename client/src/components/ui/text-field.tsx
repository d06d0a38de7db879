import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

/** The look of every input and select; padding is separate so compact fields can choose their own. */
export const INPUT_BASE_CLASS =
  'w-full rounded-lg border border-white/15 bg-black/30 text-stone-100 placeholder:text-stone-500 focus:border-accent-400 focus:outline-none focus:ring-2 focus:ring-accent-400/30 disabled:cursor-not-allowed disabled:opacity-60';
export const INPUT_CLASS = `${INPUT_BASE_CLASS} px-3.5 py-2.5`;
/** For fields inside a table row. */
export const COMPACT_INPUT_CLASS = `${INPUT_BASE_CLASS} px-2 py-1.5 text-sm`;

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Rendered inside the input's box on the right, such as a show/hide toggle. */
  trailing?: ReactNode;
  hint?: string;
}

/** An input with a visible label tied to it, so screen readers and getByLabel both find it. */
export function TextField({ label, trailing, hint, id, className = '', ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-stone-300">
        {label}
      </label>
      <div className="relative">
        <input id={inputId} className={`${INPUT_CLASS} ${trailing ? 'pr-16' : ''}`} {...props} />
        {trailing && <div className="absolute inset-y-0 right-2 flex items-center">{trailing}</div>}
      </div>
      {hint && <p className="mt-1 text-xs text-stone-400">{hint}</p>}
    </div>
  );
}
