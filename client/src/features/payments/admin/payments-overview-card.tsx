import { formatDay } from '@common/dates';
import { Card } from '../../../components/ui/card';
import { usePaymentsOverview } from './api';

const count = new Intl.NumberFormat();

/**
 * Money on the console's overview (the Dashboard section): how many members pay through Stripe,
 * and whose payment is failing (Stripe retries meanwhile; the owner is mailed too). Refreshed with
 * the user counts.
 */
export function PaymentsOverviewCard({ refreshMs }: { refreshMs: number }) {
  const { data } = usePaymentsOverview(refreshMs);
  if (!data) return null;
  if (!data.ready && data.paying === 0)
    return (
      <p className="mt-8 text-sm text-stone-400">
        Payments: Stripe is not connected, so members cannot upgrade by themselves yet (see Payments in the
        menu).
      </p>
    );
  const failing = data.pastDue > 0;
  return (
    <section aria-labelledby="payments-overview-heading">
      <Card className={`mt-8 sm:p-6 ${failing ? 'border-red-500/40' : ''}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="payments-overview-heading" className="text-lg font-semibold text-white">
            Payments
          </h2>
          <p className="text-sm text-stone-400">
            {data.mode === 'test'
              ? 'Stripe test mode: no real money moves.'
              : data.ready
                ? 'Stripe live mode.'
                : 'Stripe is not fully set up: members cannot upgrade.'}
          </p>
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3">
          <div className="rounded-xl border border-white/10 bg-black/20 p-3">
            <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">Paying members</dt>
            <dd className="mt-1 font-display text-2xl text-white tabular-nums" data-testid="payments-paying">
              {count.format(data.paying)}
            </dd>
          </div>
          <div
            className={`rounded-xl border p-3 ${failing ? 'border-red-500/40 bg-red-500/10' : 'border-white/10 bg-black/20'}`}
          >
            <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">Payment failing</dt>
            <dd
              className={`mt-1 font-display text-2xl tabular-nums ${failing ? 'text-red-200' : 'text-white'}`}
              data-testid="payments-past-due"
            >
              {count.format(data.pastDue)}
            </dd>
          </div>
        </dl>
        {failing && (
          <div className="mt-4">
            <p className="text-sm text-stone-300">
              Stripe retries these payments; the members keep access meanwhile and are asked to update their
              card.
            </p>
            <ul className="mt-3 divide-y divide-white/5 text-sm">
              {data.failing.map((member) => (
                <li
                  key={member._id}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
                >
                  <span>
                    <span className="font-medium text-white">{member.name}</span>{' '}
                    <span className="break-all text-stone-400">{member.email}</span>
                  </span>
                  <span className="text-stone-300">
                    {member.paymentFailedAt ? `failed ${formatDay(member.paymentFailedAt)}` : 'past due'}
                    {member.currentPeriodEnd ? `, paid until ${formatDay(member.currentPeriodEnd)}` : ''}
                  </span>
                </li>
              ))}
            </ul>
            {data.pastDue > data.failing.length && (
              <p className="mt-2 text-xs text-stone-400">
                And {data.pastDue - data.failing.length} more: filter User Management by “Payment failing”.
              </p>
            )}
          </div>
        )}
        {data.notApplied.count > 0 && (
          <div className="mt-4 rounded-xl border border-red-500/40 bg-red-500/10 p-3" role="alert">
            <p className="text-sm font-semibold text-red-200" data-testid="payments-not-applied">
              Payments received but not applied ({data.notApplied.count})
            </p>
            <p className="mt-1 text-sm text-stone-300">
              {data.notApplied.reason}
              {data.notApplied.since ? ` Since ${formatDay(data.notApplied.since)}.` : ''} Stripe sends them
              again; this clears once they are applied.
            </p>
          </div>
        )}
        {data.subscribedTwice.length > 0 && (
          <div className="mt-4 rounded-xl border border-red-500/40 bg-red-500/10 p-3" role="alert">
            <p className="text-sm font-semibold text-red-200">Charged twice?</p>
            <p className="mt-1 text-sm text-stone-300">
              These members have more than one live Stripe subscription (a second checkout went through).
              Cancel and refund the extra one in Stripe’s dashboard (Customers, then the customer id).
            </p>
            <ul className="mt-2 divide-y divide-white/5 text-sm" data-testid="payments-subscribed-twice">
              {data.subscribedTwice.map((member) => (
                <li key={member._id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-2">
                  <span>
                    <span className="font-medium text-white">{member.name}</span>{' '}
                    <span className="break-all text-stone-400">{member.email}</span>
                  </span>
                  <span className="text-stone-300">
                    {member.subscriptions} subscriptions{member.customerId ? `, ${member.customerId}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>
    </section>
  );
}
