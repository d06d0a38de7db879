import { createContext, type ReactNode, useContext, useId, useState } from 'react';

/** False while a chart shows: its table is there for screen readers only (no scrolling, no tab stop). */
const TableShown = createContext(true);

export interface TableColumn<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  /** Numbers line up on the right. */
  numeric?: boolean;
}

/** The figures of a chart as a table: what screen readers and keyboard users read. */
export function FigureTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: TableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  const shown = useContext(TableShown);
  const table = (
    <table className="w-full min-w-max text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-white/10 text-xs uppercase tracking-wider text-stone-400">
          {columns.map((column) => (
            <th
              key={column.label}
              scope="col"
              className={`px-2 py-2 font-semibold ${column.numeric ? 'text-right' : ''}`}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-white/5">
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column, index) =>
              index === 0 ? (
                <th key={column.label} scope="row" className="px-2 py-1.5 font-medium text-stone-200">
                  {column.cell(row)}
                </th>
              ) : (
                <td
                  key={column.label}
                  className={`px-2 py-1.5 text-stone-200 ${column.numeric ? 'text-right tabular-nums' : ''}`}
                >
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (!shown) return table;
  return (
    // A wide table scrolls sideways on a phone: the keyboard can reach it to scroll it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable.
    <section className="overflow-x-auto" tabIndex={0} aria-label={caption}>
      {table}
    </section>
  );
}

/**
 * A chart with its table: the chart is drawn for the eye (hidden from screen readers), the table
 * is always there for screen readers and shown to anyone who presses "Show table".
 */
export function ChartFigure({
  title,
  summary,
  chart,
  table,
}: {
  title: string;
  /** One sentence a screen reader hears before the table. */
  summary?: string;
  chart: ReactNode;
  table: ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  return (
    <figure className="mt-4" aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={id} className="text-sm font-semibold text-stone-200">
          {title}
        </figcaption>
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable((shown) => !shown)}
          className="rounded-lg border border-white/15 px-2.5 py-1 text-xs text-stone-200 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-accent-300"
        >
          {asTable ? 'Show chart' : 'Show table'}
        </button>
      </div>
      {summary && <p className="sr-only">{summary}</p>}
      {!asTable && <div className="mt-2">{chart}</div>}
      <div className={asTable ? 'mt-2' : 'sr-only'}>
        <TableShown.Provider value={asTable}>{table}</TableShown.Provider>
      </div>
    </figure>
  );
}
