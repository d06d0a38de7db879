import { formatDay } from '@common/dates';
import { describePlan } from '@common/payment-plans';
import { describeDiscount, SUBSCRIPTION_STATUS_LABELS } from '@common/schemas/billing';
import type { MemberBilling } from '@common/schemas/payments';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormMessage } from '../../../components/ui/form-message';
import { useMemberBilling, usePortal } from '../api';
import { useResetOnReturn } from '../use-reset-on-return';
import { CheckoutReturnNotice } from './checkout-return-notice';
import { UpgradeButton } from './upgrade-button';

/** "Next payment" while it renews, "Access until" once cancelled, "Ended on" after. */
function periodFact(
  subscription: NonNullable<MemberBilling['subscription']>,
): { label: string; value: string } | null {
  if (subscription.endedAt) return { label: 'Ended on', value: formatDay(subscription.endedAt) };
  const end = subscription.cancelAt ?? subscription.currentPeriodEnd;
  if (!end) return null;
  if (subscription.cancelAtPeriodEnd) return { label: 'Access until', value: formatDay(end) };
  if (subscription.status === 'trialing')
    return { label: 'Free trial ends', value: formatDay(subscription.trialEnd ?? end) };
  return { label: 'Next payment', value: formatDay(end) };
}

/**
 * The account page's Billing: the member's plan, its status and the date of the next payment (or
 * of the end of access), Manage billing (Stripe's Customer Portal) for a paying member, and the
 * Upgrade button for a free one. Absent while there is nothing to say (Stripe not connected and
 * no billing history).
 */
export function BillingSection() {
  const billing = useMemberBilling();
  const portal = usePortal();
  useResetOnReturn(portal.reset);
  const data = billing.data;
  if (!data) return <CheckoutReturnNotice />;
  const subscription = data.subscription;
  const complimentary = data.tier === 'paid' && data.tierSource === 'complimentary';
  if (!subscription && !data.canManageBilling && !data.available && !complimentary)
    return <CheckoutReturnNotice />;
  const period = subscription ? periodFact(subscription) : null;
  return (
    <section aria-labelledby="section-billing" className="space-y-4">
      <CheckoutReturnNotice />
      <Card className="w-full">
        <h2 id="section-billing" className="font-display text-2xl text-white">
          Billing
        </h2>
        <p className="mt-1 text-sm text-stone-300">
          Your plan and its payments, which Stripe takes and keeps for us.
        </p>
        <div className="mt-5 space-y-5">
          {subscription ? (
            <dl className="grid grid-cols-1 gap-4 rounded-xl border border-white/10 bg-black/20 p-4 sm:grid-cols-3">
              <Fact label="Plan">
                {subscription.plan ? `Architect Tier, ${describePlan(subscription.plan)}` : 'Architect Tier'}
              </Fact>
              <Fact label="Status">
                {subscription.cancelAtPeriodEnd && !subscription.endedAt
                  ? 'Cancelled, ends at period end'
                  : SUBSCRIPTION_STATUS_LABELS[subscription.status]}
              </Fact>
              {period && <Fact label={period.label}>{period.value}</Fact>}
              {subscription.discount && (
                <Fact label="Discount">
                  {[subscription.discount.code, describeDiscount(subscription.discount)]
                    .filter(Boolean)
                    .join(': ')}
                  {subscription.discount.end ? `, until ${formatDay(subscription.discount.end)}` : ''}
                </Fact>
              )}
            </dl>
          ) : complimentary ? (
            <p className="text-stone-200">
              Your Architect Tier membership is complimentary, given by the site’s owner: there is nothing to
              pay.
            </p>
          ) : null}
          {subscription?.trialNeedsCard && subscription.trialEnd && (
            <p className="rounded-lg border border-amber-400/30 bg-amber-400/10 p-3 text-sm text-amber-100">
              Your free trial ends on {formatDay(subscription.trialEnd)}. To stay on the Architect Tier after
              it, add a card in Manage billing before then; without one, the membership ends that day and
              nothing is charged.
            </p>
          )}
          {subscription?.status === 'past_due' && (
            <FormMessage tone="error">
              Your last payment did not go through. Stripe will try again; update your card in Manage billing
              to keep your membership.
            </FormMessage>
          )}
          {data.tier === 'free' && data.available && (
            <div className="space-y-3">
              <p className="text-stone-200">
                {subscription
                  ? 'Come back to the Architect Tier whenever you like:'
                  : 'You are on the free tier.'}{' '}
                The Architect Tier opens every paid course and lesson.
              </p>
              <UpgradeButton returnPath="/account" />
            </div>
          )}
          {data.canManageBilling && (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-stone-300">
                Change your plan or card, see receipts, or cancel, on Stripe.
              </p>
              <Button
                variant="secondary"
                onClick={() => portal.mutate({ returnPath: '/account' })}
                disabled={portal.isPending}
                className="w-full shrink-0 sm:w-auto"
              >
                {portal.isPending ? 'Opening Stripe…' : 'Manage billing'}
              </Button>
            </div>
          )}
          {portal.isError && <FormMessage tone="error">{portal.error.message}</FormMessage>}
        </div>
      </Card>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">{label}</dt>
      <dd className="mt-1 text-base text-white">{children}</dd>
    </div>
  );
}
