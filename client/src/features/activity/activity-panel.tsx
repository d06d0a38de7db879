import { formatMoment } from '@common/dates';
import {
  ACTIVITY_KINDS,
  ACTIVITY_PAGE_SIZES,
  type ActivityEntry,
  type ActivityKind,
} from '@common/schemas/activity';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { PageSizeSelect } from '../../components/ui/page-size-select';
import { Pagination } from '../../components/ui/pagination';
import { INPUT_CLASS } from '../../components/ui/text-field';
import { type ActivityFilters, downloadActivityCsv, useActivity } from './api';

const EMPTY: ActivityFilters = { actor: '', kind: '', from: '', to: '' };
const LABEL = 'mb-1.5 block text-sm font-medium text-stone-300';

const when = (iso: string) => formatMoment(iso);

/** Who changed what, newest first. Read-only: nothing here edits or deletes an entry. */
export function ActivityPanel() {
  const [filters, setFilters] = useState<ActivityFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(ACTIVITY_PAGE_SIZES[0]);
  const [exportError, setExportError] = useState<string | null>(null);
  const list = useActivity(filters, page, pageSize);

  const set = <K extends keyof ActivityFilters>(key: K, value: ActivityFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  };

  async function exportCsv() {
    setExportError(null);
    try {
      await downloadActivityCsv(filters);
    } catch (failure) {
      setExportError(`Failed to export the activity: ${(failure as Error).message}`);
    }
  }

  const entries = list.data?.data ?? [];
  return (
    <section aria-labelledby="activity-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="activity-heading" className="text-2xl font-semibold text-white sm:text-3xl">
            Activity
          </h1>
          <p className="mt-2 text-stone-300">Who changed what, and when. Entries are kept for a year.</p>
        </div>
        <Button variant="secondary" onClick={exportCsv}>
          Export CSV
        </Button>
      </div>

      <form
        aria-label="Filter activity"
        className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => e.preventDefault()}
      >
        <div>
          <label htmlFor="activity-actor" className={LABEL}>
            Person (e-mail)
          </label>
          <input
            id="activity-actor"
            type="search"
            placeholder="anyone"
            value={filters.actor}
            onChange={(e) => set('actor', e.target.value.trim())}
            className={INPUT_CLASS}
          />
        </div>
        <div>
          <label htmlFor="activity-kind" className={LABEL}>
            Kind
          </label>
          <select
            id="activity-kind"
            value={filters.kind}
            onChange={(e) => set('kind', e.target.value as ActivityKind | '')}
            className={INPUT_CLASS}
          >
            <option value="">Every kind</option>
            {Object.entries(ACTIVITY_KINDS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="activity-from" className={LABEL}>
            From
          </label>
          <input
            id="activity-from"
            type="date"
            value={filters.from}
            onChange={(e) => set('from', e.target.value)}
            className={INPUT_CLASS}
          />
        </div>
        <div>
          <label htmlFor="activity-to" className={LABEL}>
            To
          </label>
          <input
            id="activity-to"
            type="date"
            value={filters.to}
            onChange={(e) => set('to', e.target.value)}
            className={INPUT_CLASS}
          />
        </div>
      </form>

      {(exportError || list.error) && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-500/40 bg-red-500/15 px-4 py-3 text-sm text-red-100"
        >
          {exportError ?? `Could not load the activity: ${(list.error as Error).message}`}
        </p>
      )}

      <ol aria-label="Activity entries" aria-busy={list.isFetching} className="mt-6 space-y-2">
        {entries.map((entry) => (
          <ActivityRow key={entry._id} entry={entry} />
        ))}
        {list.data && entries.length === 0 && (
          <li className="rounded-2xl border border-white/10 bg-stone-950/60 px-4 py-10 text-center text-stone-400">
            Nothing matches these filters.
          </li>
        )}
        {!list.data && !list.error && (
          <li className="px-4 py-10 text-center text-stone-400">Loading activity…</li>
        )}
      </ol>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2 text-sm text-stone-400">
          <span>{list.data ? `${list.data.total.toLocaleString()} entries` : ''}</span>
          <PageSizeSelect
            id="activity-page-size"
            className="ml-3"
            sizes={ACTIVITY_PAGE_SIZES}
            value={pageSize}
            onChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
          />
        </div>
        <Pagination
          page={list.data?.currentPage ?? page}
          totalPages={list.data?.totalPages ?? 1}
          onPage={setPage}
        />
      </div>
    </section>
  );
}

function ActivityRow({ entry }: { entry: ActivityEntry }) {
  const hasValues = entry.before !== null || entry.after !== null;
  return (
    <li className="rounded-2xl border border-white/10 bg-stone-950/60 px-4 py-3 shadow-lg shadow-black/30 backdrop-blur-xl">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 break-words font-medium text-white">{entry.summary}</p>
        <time dateTime={entry.at} className="shrink-0 text-xs text-stone-400 tabular-nums">
          {when(entry.at)}
        </time>
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-stone-400">
        <span className="rounded bg-white/10 px-1.5 py-0.5 text-stone-200">
          {ACTIVITY_KINDS[entry.kind] ?? entry.kind}
        </span>
        <span className="break-all">{entry.actorEmail}</span>
        <span>from {entry.address}</span>
      </p>
      {hasValues && (
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer text-accent-300 hover:text-accent-200">Before and after</summary>
          <div className="mt-2 grid gap-2 md:grid-cols-2">
            <Values title="Before" value={entry.before} />
            <Values title="After" value={entry.after} />
          </div>
        </details>
      )}
    </li>
  );
}

function Values({ title, value }: { title: string; value: unknown }) {
  return (
    <div className="min-w-0">
      <p className="mb-1 font-semibold text-stone-300">{title}</p>
      <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-black/40 p-2 text-stone-300">
        {value === null ? '—' : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}
