export interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
}

/** A checkbox with its label beside it; the whole line toggles it. */
export function CheckboxField({ label, checked, onChange, className = '' }: CheckboxFieldProps) {
  return (
    <label className={`flex items-center gap-3 text-sm text-stone-200 ${className}`}>
      <input
        type="checkbox"
        className="size-4 accent-amber-400"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}
