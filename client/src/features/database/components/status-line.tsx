import type { DatabaseStatus } from '@common/schemas/database';
import { formatUptimeHours } from '../format';

export interface StatusLineProps {
  status: DatabaseStatus | undefined;
  failed: boolean;
  onRefresh: () => void;
  refreshing: boolean;
}

/** Which store the site runs on, where, and how it is doing (SPEC: "Status line"). */
export function StatusLine({ status, failed, onRefresh, refreshing }: StatusLineProps) {
  const connected = status?.connected === true && !failed;
  const stats = status?.stats;
  const details = stats?.location
    ? [
        ['Store', stats.store === 'embedded' ? 'SQLite (embedded)' : 'MongoDB'],
        ['Database', stats.database],
        ['Host', stats.port ? `${stats.host}:${stats.port}` : stats.host],
        ['Version', stats.version],
        ['Uptime', stats.uptime === null ? 'not reported' : formatUptimeHours(stats.uptime)],
      ]
    : [];
  return (
    <div
      className="flex flex-col items-start gap-3 rounded-2xl border border-white/10 bg-stone-950/60 p-4 shadow-xl shadow-black/30 backdrop-blur-xl sm:flex-row sm:justify-between sm:p-5"
      data-testid="database-status"
    >
      <div className="w-full min-w-0 flex-1">
        <p className="flex items-center gap-2 font-medium text-white" aria-live="polite">
          <span
            aria-hidden="true"
            className={`inline-block size-2.5 shrink-0 rounded-full ${
              status === undefined && !failed ? 'bg-stone-500' : connected ? 'bg-emerald-400' : 'bg-red-500'
            }`}
          />
          <span className="break-words [overflow-wrap:anywhere]">
            {failed ? 'Status unavailable' : status ? status.message : 'Checking status…'}
          </span>
        </p>
        {details.length > 0 && (
          <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:flex sm:flex-wrap">
            {details.map(([label, value]) => (
              <div key={label} className="flex min-w-0 gap-1.5">
                <dt className="text-stone-400">{label}:</dt>
                <dd className="min-w-0 text-stone-200 [overflow-wrap:anywhere]">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <button
        type="button"
        onClick={onRefresh}
        disabled={refreshing}
        className="shrink-0 rounded-lg border border-white/15 px-3 py-1.5 text-sm text-stone-200 hover:bg-white/10 disabled:opacity-50"
      >
        {refreshing ? 'Checking…' : 'Refresh status'}
      </button>
    </div>
  );
}
