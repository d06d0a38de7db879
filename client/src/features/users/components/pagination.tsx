export interface PaginationProps {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}

const BUTTON =
  'rounded-lg border border-white/15 bg-white/5 px-4 py-2 text-sm font-medium text-stone-200 transition-colors hover:bg-white/10 disabled:cursor-not-allowed disabled:opacity-40';

export function Pagination({ page, totalPages, onPage }: PaginationProps) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-4 sm:justify-end">
      <button type="button" className={BUTTON} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm text-stone-300 tabular-nums">
        Page {page} of {totalPages}
      </span>
      <button type="button" className={BUTTON} disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
