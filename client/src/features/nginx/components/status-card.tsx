import type { NginxState, NginxStatusResponse } from '@common/schemas/nginx';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

const LABELS: Record<NginxState, string> = {
  running: 'Running',
  stopped: 'Stopped',
  error: 'Error',
  unknown: 'Unknown',
};

const DOTS: Record<NginxState | 'checking', string> = {
  running: 'bg-emerald-400 shadow-[0_0_12px] shadow-emerald-400/70',
  stopped: 'bg-stone-400',
  error: 'bg-red-500 shadow-[0_0_12px] shadow-red-500/70',
  unknown: 'bg-amber-400',
  checking: 'bg-sky-400 animate-pulse',
};

export interface StatusCardProps {
  status: NginxStatusResponse | undefined;
  checking: boolean;
  /** Set when the status call itself failed. */
  failure: string | null;
  onRefresh: () => void;
}

/** Service status (SPEC: Running, Checking..., Stopped, Error, Unknown; version and processes). */
export function StatusCard({ status, checking, failure, onRefresh }: StatusCardProps) {
  const state: NginxState | 'checking' = checking
    ? 'checking'
    : failure
      ? 'error'
      : (status?.state ?? 'unknown');
  const label = state === 'checking' ? 'Checking...' : LABELS[state];
  const message = checking ? 'Asking nginx…' : (failure ?? status?.message ?? '');

  return (
    <Card className="sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-stone-400">Service status</h2>
          <p className="mt-2 flex items-center gap-3 text-2xl font-semibold text-white" aria-live="polite">
            <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-full ${DOTS[state]}`} />
            <span data-testid="nginx-state">{label}</span>
          </p>
        </div>
        <Button variant="secondary" onClick={onRefresh} disabled={checking} aria-label="Refresh status">
          ↻ Refresh
        </Button>
      </div>
      <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Fact term="Version" value={status?.stats.version ? `nginx ${status.stats.version}` : '—'} />
        <Fact term="Processes" value={status ? String(status.stats.processes) : '—'} />
        <Fact
          term="Instance"
          value={status ? (status.mode === 'managed' ? 'Managed by this app' : 'System nginx') : '—'}
          className="col-span-2 sm:col-span-1"
        />
      </dl>
      {message && <p className="mt-4 break-words text-sm text-stone-300">{message}</p>}
    </Card>
  );
}

function Fact({ term, value, className = '' }: { term: string; value: string; className?: string }) {
  return (
    <div className={`rounded-xl border border-white/10 bg-black/20 px-4 py-3 ${className}`}>
      <dt className="text-xs font-medium uppercase tracking-wider text-stone-400">{term}</dt>
      <dd className="mt-1 font-mono text-sm text-stone-100">{value}</dd>
    </div>
  );
}
