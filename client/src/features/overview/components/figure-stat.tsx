const count = new Intl.NumberFormat();

/** "+12 (+5%)" against the period before; nothing to compare when it had nothing. */
export function changeText(
  now: number,
  before: number,
  format: (value: number) => string = count.format,
): string {
  const difference = now - before;
  const sign = difference > 0 ? '+' : difference < 0 ? '−' : '±';
  const share =
    before !== 0 ? ` (${sign}${Math.round((Math.abs(difference) / Math.abs(before)) * 100)}%)` : '';
  return `${sign}${format(Math.abs(difference))}${share}`;
}

/** One figure of a period, with its change against the period before when there is one. */
export function FigureStat({
  label,
  value,
  before,
  format = count.format,
  testId,
  note,
}: {
  label: string;
  value: number | null;
  before?: number | null;
  format?: (value: number) => string;
  testId?: string;
  note?: string;
}) {
  return (
    <div className="rounded-xl border border-white/10 bg-black/20 p-3">
      <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">{label}</dt>
      <dd className="mt-1 font-display text-2xl text-white tabular-nums" data-testid={testId}>
        {value === null ? '—' : format(value)}
      </dd>
      {value !== null && before !== undefined && before !== null && (
        <dd className="text-xs text-stone-400">
          {changeText(value, before, format)} <span className="sr-only">against the period before</span>
          <span aria-hidden="true"> vs before</span>
        </dd>
      )}
      {note && <dd className="mt-0.5 text-xs text-stone-400">{note}</dd>}
    </div>
  );
}
