import { type FormEvent, useEffect, useId, useState } from 'react';

export interface PaginationProps {
  page: number;
  totalPages: number;
  /** There are more pages than `totalPages` (a count that stopped): "Page 3 of more than 100". */
  more?: boolean;
  onPage: (page: number) => void;
}

const BUTTON =
  'rounded-lg border border-white/15 bg-white/5 px-4 py-2 text-sm font-medium text-stone-200 transition-colors hover:bg-white/10 disabled:cursor-not-allowed disabled:opacity-40';

export function Pagination({ page, totalPages, more = false, onPage }: PaginationProps) {
  const last = more ? Number.MAX_SAFE_INTEGER : totalPages;
  const inputId = useId();
  const [typed, setTyped] = useState(String(page));
  useEffect(() => setTyped(String(page)), [page]);
  const go = (event: FormEvent) => {
    event.preventDefault();
    const wanted = Number.parseInt(typed, 10);
    if (Number.isInteger(wanted)) onPage(Math.min(last, Math.max(1, wanted)));
    else setTyped(String(page));
  };
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 sm:justify-end">
      <button type="button" className={BUTTON} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm text-stone-300 tabular-nums">
        Page {page} of {more ? `more than ${totalPages.toLocaleString()}` : totalPages}
      </span>
      <button type="button" className={BUTTON} disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </button>
      {(more || totalPages > 2) && (
        <form onSubmit={go} className="flex items-center gap-2">
          <label htmlFor={inputId} className="text-sm text-stone-400">
            Go to page
          </label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            max={more ? undefined : totalPages}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            className="w-20 rounded-lg border border-white/15 bg-black/30 px-2 py-1.5 text-sm text-stone-100 tabular-nums focus:border-accent-400 focus:outline-none focus:ring-2 focus:ring-accent-400/30"
          />
          <button type="submit" className={BUTTON}>
            Go
          </button>
        </form>
      )}
    </nav>
  );
}
