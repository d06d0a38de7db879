/** "Per page" for a paged list: the sizes the server accepts for it. */
export function PageSizeSelect({
  id,
  sizes,
  value,
  onChange,
  className,
}: {
  id: string;
  sizes: readonly number[];
  value: number;
  onChange: (size: number) => void;
  className?: string;
}) {
  return (
    <>
      <label htmlFor={id} className={className}>
        Per page
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-lg border border-white/15 bg-stone-900 px-2 py-1.5 text-stone-100"
      >
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </>
  );
}
