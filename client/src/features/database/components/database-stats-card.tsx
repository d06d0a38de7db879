import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useDatabaseStats } from '../api';
import { formatBytes, formatCount } from '../format';

/** One database's statistics, expandable to storage, documents, indexes and average size. */
export function DatabaseStatsCard({ name }: { name: string }) {
  const navigate = useNavigate();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const { data: stats, isError } = useDatabaseStats(name);

  return (
    <li
      aria-label={`Database ${name}`}
      className="rounded-2xl border border-white/10 bg-stone-950/60 shadow-xl shadow-black/30 backdrop-blur-xl"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${ids}-stats`}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-between gap-3 rounded-2xl px-5 py-4 text-left hover:bg-white/5"
      >
        <span className="min-w-0">
          <span className="block truncate text-lg font-semibold text-white">{name}</span>
          <span className="text-sm text-stone-400">
            {isError
              ? 'Statistics unavailable'
              : stats
                ? `${formatCount(stats.collections)} collections · ${formatBytes(stats.dataSize)}`
                : 'Loading…'}
          </span>
        </span>
        <span aria-hidden="true" className={`text-stone-400 transition-transform ${open ? 'rotate-90' : ''}`}>
          ▸
        </span>
      </button>
      <div id={`${ids}-stats`} hidden={!open} className="border-t border-white/10 px-5 pt-4 pb-5">
        {stats && (
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <Figure label="Storage" value={formatBytes(stats.storageSize)} />
            <Figure label="Documents" value={formatCount(stats.objects)} />
            <Figure label="Indexes" value={formatCount(stats.indexes)} />
            <Figure label="Average size" value={formatBytes(stats.avgObjSize)} />
          </dl>
        )}
        <Button
          className="mt-4 w-full sm:w-auto"
          onClick={() => navigate(`/admin/database/${encodeURIComponent(name)}`)}
        >
          Explore Database
        </Button>
      </div>
    </li>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-black/25 px-3 py-2">
      <dt className="text-xs uppercase tracking-wider text-stone-400">{label}</dt>
      <dd className="mt-0.5 font-semibold text-white tabular-nums">{value}</dd>
    </div>
  );
}
