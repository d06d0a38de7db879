/**
 * A member's billing as the user record carries it: the subscription's status at the payment
 * provider and why the member has their tier. Kept apart from `payments.ts` (the Payments
 * section's settings and calls) so that `user.ts` can name it without a circle.
 */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Statuses in which the member has paid access: past_due is the grace while the provider retries. */
export const PAYING_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** Statuses from which a subscription never charges again; any other may (unpaid and paused ones can resume). */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed, retrying',
  canceled: 'Cancelled',
  unpaid: 'Unpaid',
  incomplete: 'Awaiting first payment',
  incomplete_expired: 'First payment never made',
  paused: 'Paused',
};

/**
 * Why a member has the tier they have: Stripe's events, an administrator's edit, or a paid tier
 * given by hand ('complimentary').
 */
export const TIER_SOURCES = ['stripe', 'complimentary', 'admin'] as const;
export type TierSource = (typeof TIER_SOURCES)[number];

/**
 * A discount on a subscription (a promotion code the member entered at checkout), while it
 * applies: so much off in percent or in an amount of a currency, until `end` (null: for good).
 */
export interface BillingDiscount {
  /** The code the member entered; null for a coupon the owner applied in Stripe. */
  code: string | null;
  /** The coupon's own name in Stripe, if any. */
  name: string | null;
  percentOff: number | null;
  /** In the currency's smallest unit. */
  amountOff: number | null;
  currency: string | null;
  end: string | null;
}

/** "20% off", "£5.00 off": what a discount takes off each payment. */
export function describeDiscount(
  discount: Pick<BillingDiscount, 'percentOff' | 'amountOff' | 'currency'>,
): string {
  if (discount.percentOff !== null) return `${discount.percentOff}% off`;
  if (discount.amountOff !== null && discount.currency) {
    try {
      return `${new Intl.NumberFormat('en-GB', { style: 'currency', currency: discount.currency.toUpperCase() }).format(discount.amountOff / 100)} off`;
    } catch {
      return `${(discount.amountOff / 100).toFixed(2)} ${discount.currency.toUpperCase()} off`;
    }
  }
  return 'A discount';
}

/** A course bought on its own, as the member and the console see it. */
export interface PublicPurchase {
  courseId: string;
  courseTitle: string;
  amount: number | null;
  currency: string | null;
  boughtAt: string;
  refundedAt: string | null;
}

/** The billing part of a user as the console and the member see it. */
export interface PublicBilling {
  customerId: string | null;
  subscriptionId: string | null;
  status: SubscriptionStatus | null;
  priceId: string | null;
  /** End of the period paid for: the next payment, or the end of access when it is cancelled. */
  currentPeriodEnd: string | null;
  /** The subscription ends at the end of its period (or at `cancelAt`) instead of renewing. */
  cancelAtPeriodEnd: boolean;
  cancelAt: string | null;
  endedAt: string | null;
  /** The last failed payment, until a payment succeeds. */
  paymentFailedAt: string | null;
}
