import type { AppServerStatus } from '@common/schemas/app-server';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatBytes, formatCpu, formatUptime } from '../format';

export interface StatusCardProps {
  status: AppServerStatus | undefined;
  refreshing: boolean;
  updatedAt: number;
  onRefresh: () => void;
}

/** Uptime, Node version, memory and CPU of the running server (SPEC section 2). */
export function StatusCard({ status, refreshing, updatedAt, onRefresh }: StatusCardProps) {
  const items: Array<[label: string, value: string]> = [
    ['Uptime', status ? formatUptime(status.uptime) : '—'],
    ['Node Version', status?.version ?? '—'],
    [
      'Memory Usage',
      status ? `${formatBytes(status.memory.heapUsed)} / ${formatBytes(status.memory.heapTotal)}` : '—',
    ],
    ['CPU Usage', status ? formatCpu(status.cpu?.user) : '—'],
  ];
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Server Status</h2>
          <p className="mt-0.5 text-xs text-stone-400">
            {updatedAt
              ? `Updated ${new Date(updatedAt).toLocaleTimeString()} · every 10 seconds`
              : 'Loading…'}
          </p>
        </div>
        <Button variant="secondary" onClick={onRefresh} disabled={refreshing} aria-label="Refresh status">
          <span aria-hidden="true" className={refreshing ? 'animate-spin' : ''}>
            ↻
          </span>
          Refresh
        </Button>
      </div>
      <dl className="mt-5 grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 2xl:grid-cols-4">
        {items.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-white/10 bg-black/25 px-4 py-3">
            <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">{label}</dt>
            <dd
              className="mt-1 truncate font-mono text-lg text-white"
              title={value}
              data-testid={`status-${label}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
