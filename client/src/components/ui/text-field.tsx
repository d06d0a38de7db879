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
  /** What is wrong with the value, shown at the field (which is then marked invalid). */
  error?: string;
}

/** An input with a visible label tied to it, so screen readers and getByLabel both find it. */
export function TextField({ label, trailing, hint, error, id, className = '', ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-stone-300">
        {label}
      </label>
      <div className="relative">
        <input
          id={inputId}
          className={`${INPUT_CLASS} ${trailing ? 'pr-16' : ''} ${error ? 'border-red-400 ring-2 ring-red-400/30' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...props}
        />
        {trailing && <div className="absolute inset-y-0 right-2 flex items-center">{trailing}</div>}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      )}
      {hint && <p className="mt-1 text-xs text-stone-400">{hint}</p>}
    </div>
  );
}
