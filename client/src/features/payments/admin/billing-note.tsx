import { formatDay } from '@common/dates';
import { PAYING_STATUSES, type PublicBilling, SUBSCRIPTION_STATUS_LABELS } from '@common/schemas/billing';
import type { BillingFilter } from '@common/schemas/payments';
import type { PublicUser, Tier } from '@common/schemas/user';

/** The User Management filter's choices (the payments part of the list's query). */
export const BILLING_FILTER_OPTIONS: ReadonlyArray<{ value: BillingFilter | ''; label: string }> = [
  { value: '', label: 'Everyone' },
  { value: 'paying', label: 'Paying members (Stripe)' },
  { value: 'past_due', label: 'Payment failing' },
  { value: 'complimentary', label: 'Paid by hand (complimentary)' },
];

/** A live subscription decides this member's tier: Stripe's next event would set it again. */
export function isManagedByStripe(user: PublicUser): boolean {
  return Boolean(user.billing?.status && PAYING_STATUSES.includes(user.billing.status));
}

/** The warning before an administrator changes the tier of a member Stripe bills, or null. */
export function stripeTierWarning(user: PublicUser, next: Tier | undefined): string | null {
  if (!next || next === user.membershipTier || !isManagedByStripe(user)) return null;
  const renews = user.billing?.currentPeriodEnd
    ? `, paid until ${formatDay(user.billing.currentPeriodEnd)}`
    : '';
  return next === 'free'
    ? `${user.name} pays through Stripe (${SUBSCRIPTION_STATUS_LABELS[user.billing!.status!].toLowerCase()}${renews}). Making them free here does not cancel their subscription: Stripe goes on charging them, and its next event makes them paid again. To end it, cancel the subscription in Stripe’s dashboard.`
    : `${user.name}’s tier is managed by Stripe. Making them paid by hand marks the tier as complimentary.`;
}

function periodWords(billing: PublicBilling): string | null {
  if (billing.endedAt) return `Ended ${formatDay(billing.endedAt)}`;
  const end = billing.cancelAt ?? billing.currentPeriodEnd;
  if (!end) return null;
  if (billing.cancelAtPeriodEnd) return `Ends ${formatDay(end)}`;
  return billing.status === 'past_due' ? `Paid until ${formatDay(end)}` : `Renews ${formatDay(end)}`;
}

/** Under the Tier badge: who pays and how (Stripe's status and period end, or complimentary), and the customer. */
export function BillingNote({ user }: { user: PublicUser }) {
  const billing = user.billing;
  if (user.tierSource === 'complimentary' && user.membershipTier === 'paid' && !isManagedByStripe(user))
    return <span className="text-xs text-stone-400">Complimentary</span>;
  if (!billing?.status && !billing?.customerId) return null;
  const failing = billing.status === 'past_due' || billing.status === 'unpaid';
  const period = periodWords(billing);
  return (
    <span className="flex flex-col text-xs leading-snug md:max-w-40" title={billing.customerId ?? undefined}>
      <span className={failing ? 'font-medium text-red-300' : 'text-stone-300'}>
        Stripe: {billing.status ? SUBSCRIPTION_STATUS_LABELS[billing.status] : 'no subscription'}
      </span>
      {period && <span className="text-stone-400">{period}</span>}
      {billing.customerId && (
        <span className="truncate font-mono text-[0.65rem] text-stone-500">{billing.customerId}</span>
      )}
    </span>
  );
}
