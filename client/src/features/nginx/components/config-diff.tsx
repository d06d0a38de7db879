import { diffLines } from 'diff';
import { useMemo } from 'react';

/** Unchanged lines kept around each change; longer unchanged runs fold into one line. */
const CONTEXT = 2;

interface Row {
  kind: 'same' | 'added' | 'removed' | 'fold';
  text: string;
}

function rowsOf(from: string, to: string): Row[] {
  const parts = diffLines(from, to);
  const rows: Row[] = [];
  parts.forEach((part, index) => {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (kind !== 'same') {
      for (const text of lines) rows.push({ kind, text });
      return;
    }
    // Unchanged lines: only those next to a change are shown.
    const head = index === 0 ? [] : lines.slice(0, CONTEXT);
    const tail = index === parts.length - 1 ? [] : lines.slice(-CONTEXT);
    if (head.length + tail.length >= lines.length) {
      for (const text of lines) rows.push({ kind, text });
      return;
    }
    for (const text of head) rows.push({ kind, text });
    rows.push({ kind: 'fold', text: `⋯ ${lines.length - head.length - tail.length} unchanged lines` });
    for (const text of tail) rows.push({ kind, text });
  });
  return rows;
}

const STYLE: Record<Row['kind'], string> = {
  same: 'text-stone-400',
  added: 'bg-emerald-500/15 text-emerald-200',
  removed: 'bg-red-500/15 text-red-200',
  fold: 'text-stone-500 italic',
};
const SIGN: Record<Row['kind'], string> = { same: ' ', added: '+', removed: '-', fold: ' ' };

/** A line diff of two server-block files: what would change going from `from` to `to`. */
export function ConfigDiff({ from, to }: { from: string; to: string }) {
  const rows = useMemo(() => rowsOf(from, to), [from, to]);
  if (!rows.some((row) => row.kind === 'added' || row.kind === 'removed')) {
    return <p className="text-sm text-stone-400">Same as the live file.</p>;
  }
  return (
    <pre className="max-h-80 overflow-auto rounded-lg border border-white/10 bg-black/40 py-2 text-xs leading-5">
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are rebuilt whole whenever the texts change
        <div key={index} className={`px-3 ${STYLE[row.kind]}`}>
          <span aria-hidden="true" className="mr-2 select-none">
            {SIGN[row.kind]}
          </span>
          <span className="sr-only">
            {row.kind === 'added' ? 'added: ' : row.kind === 'removed' ? 'removed: ' : ''}
          </span>
          {row.text}
        </div>
      ))}
    </pre>
  );
}
