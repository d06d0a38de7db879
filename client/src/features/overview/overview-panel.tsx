import type { AdminStats } from '@common/schemas/admin-users';
import { lazy, Suspense } from 'react';
import { MailStatusCard } from '../mail/mail-status-card';
import { PaymentsOverviewCard } from '../payments/admin/payments-overview-card';
import { STATS_REFRESH_MS, useAdminStats } from './api';

const CARDS: Array<{ key: keyof AdminStats; label: string; accent: string; note?: string }> = [
  {
    key: 'totalUsers',
    label: 'Total Users',
    accent: 'from-accent-400/25',
    note: 'Every account, administrators too',
  },
  {
    key: 'paidMembers',
    label: 'Paid Members',
    accent: 'from-emerald-400/20',
    note: 'Members only: administrators have no tier',
  },
  {
    key: 'freeMembers',
    label: 'Free Members',
    accent: 'from-sky-400/20',
    note: 'Members only: administrators have no tier',
  },
  { key: 'newMembers7d', label: 'New members, last 7 days', accent: 'from-violet-400/15' },
  { key: 'newMembers30d', label: 'New members, last 30 days', accent: 'from-violet-400/10' },
];

const numberFormat = new Intl.NumberFormat();

// The charts (uPlot) come in a chunk of their own, after the live counts.
const FiguresSection = lazy(() =>
  import('./components/figures-section').then((module) => ({ default: module.FiguresSection })),
);

/** The console's landing panel (the spec's section `dashboard`, "Dashboard Overview"): live user counts. */
export function OverviewPanel() {
  const { data, isError, dataUpdatedAt } = useAdminStats();

  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading" className="text-2xl font-semibold text-white sm:text-3xl">
        Dashboard Overview
      </h1>
      <p className="mt-2 text-stone-300">Welcome, Administrator. Here's a live snapshot of your platform.</p>

      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {CARDS.map((card) => (
          <li
            key={card.key}
            aria-label={card.label}
            className={`rounded-2xl border border-white/10 bg-gradient-to-br ${card.accent} to-stone-950/70 p-6 shadow-xl shadow-black/30 backdrop-blur-xl`}
          >
            <p className="text-sm font-medium uppercase tracking-wider text-stone-300">{card.label}</p>
            <p
              className="mt-3 font-display text-4xl text-white tabular-nums"
              data-testid={`stat-${card.key}`}
            >
              {data ? numberFormat.format(data[card.key]) : '—'}
            </p>
            {card.note && <p className="mt-1 text-xs text-stone-400">{card.note}</p>}
          </li>
        ))}
      </ul>

      <p className="mt-4 text-xs text-stone-400" aria-live="polite">
        {isError
          ? 'Could not refresh the figures. Retrying shortly…'
          : `Live: refreshes every ${STATS_REFRESH_MS / 1000} seconds and whenever users change.${
              dataUpdatedAt ? ` Last updated ${new Date(dataUpdatedAt).toLocaleTimeString()}.` : ''
            }`}
      </p>

      <PaymentsOverviewCard refreshMs={STATS_REFRESH_MS} />
      <MailStatusCard />
      <Suspense fallback={<p className="mt-10 text-sm text-stone-400">Loading the figures…</p>}>
        <FiguresSection />
      </Suspense>
    </section>
  );
}
