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

/**
 * Uptime, Node version, memory and CPU of the running server: the site's totals
 * (memory and CPU summed over the workers), then each worker.
 */
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
      {status && <WorkersTable status={status} />}
    </Card>
  );
}

function WorkersTable({ status }: { status: AppServerStatus }) {
  const count = status.workers.length;
  return (
    <section className="mt-6" aria-labelledby="workers-heading">
      <h3 id="workers-heading" className="text-sm font-semibold text-white">
        {count === 1 ? '1 worker' : `${count} workers`}
        {status.supervisor && (
          <span className="font-normal text-stone-400">
            {' '}
            · supervisor pid {status.supervisor.pid}, {formatBytes(status.supervisor.rss)}
          </span>
        )}
      </h3>
      <div className="mt-2 overflow-x-auto rounded-xl border border-white/10">
        <table className="w-full whitespace-nowrap text-left text-sm">
          <thead className="bg-black/30 text-xs uppercase tracking-wider text-stone-400">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">
                PID
              </th>
              <th scope="col" className="px-4 py-2 font-semibold">
                Uptime
              </th>
              <th scope="col" className="px-4 py-2 font-semibold">
                Resident memory
              </th>
              <th scope="col" className="px-4 py-2 font-semibold">
                Heap
              </th>
              <th scope="col" className="px-4 py-2 font-semibold">
                CPU
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5 font-mono text-stone-100">
            {status.workers.map((worker) => (
              <tr key={worker.pid} data-testid="worker-row">
                <td className="px-4 py-2">
                  {worker.pid}
                  {worker.pid === status.answeredBy && (
                    <span className="ml-2 font-sans text-xs text-stone-400">answered</span>
                  )}
                </td>
                {'memory' in worker ? (
                  <>
                    <td className="px-4 py-2">{formatUptime(worker.uptime)}</td>
                    <td className="px-4 py-2">{formatBytes(worker.memory.rss)}</td>
                    <td className="px-4 py-2">
                      {formatBytes(worker.memory.heapUsed)} / {formatBytes(worker.memory.heapTotal)}
                    </td>
                    <td className="px-4 py-2">{formatCpu(worker.cpu.user + worker.cpu.system)}</td>
                  </>
                ) : (
                  <td colSpan={4} className="px-4 py-2 font-sans text-stone-400">
                    Did not answer in time
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
