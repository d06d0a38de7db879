import { type SelectHTMLAttributes, useId } from 'react';
import { COMPACT_INPUT_CLASS, INPUT_CLASS } from './text-field';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** Smaller label and padding, for fields inside a table row. */
  compact?: boolean;
  hint?: string;
}

/** A select with a visible label tied to it. */
export function SelectField({
  label,
  options,
  compact,
  hint,
  id,
  className = '',
  ...props
}: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className={className}>
      <label
        htmlFor={selectId}
        className={
          compact
            ? 'mb-1 block text-[0.65rem] font-semibold uppercase tracking-wider text-stone-400'
            : 'mb-1.5 block text-sm font-medium text-stone-300'
        }
      >
        {label}
      </label>
      <select id={selectId} className={compact ? COMPACT_INPUT_CLASS : INPUT_CLASS} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value} className="bg-stone-900">
            {option.label}
          </option>
        ))}
      </select>
      {hint && <p className="mt-1 text-xs text-stone-400">{hint}</p>}
    </div>
  );
}
