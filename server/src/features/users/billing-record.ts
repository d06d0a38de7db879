import type { PublicBilling, PublicPurchase, SubscriptionStatus } from '@common/schemas/billing';

/**
 * A member's billing as the site keeps it, on their user document (`billing`): written only by
 * the payments feature, from what the provider says. No card detail ever reaches the site.
 */
export interface BillingRecord {
  customerId?: string;
  subscriptionId?: string;
  status?: SubscriptionStatus;
  priceId?: string | null;
  currentPeriodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  cancelAt?: Date | null;
  endedAt?: Date | null;
  /** The last failed payment, cleared when a payment succeeds. */
  paymentFailedAt?: Date | null;
  /**
   * When the site read the subscription's state from the provider. A state read earlier never
   * overwrites one read later, whatever order the events that prompted the reads came in.
   */
  observedAt?: Date;
  /**
   * The checkout sessions the site opened for this member (the last few). A finished checkout
   * links a subscription to a member only if it is one of these: the `client_reference_id` a
   * checkout carries can be set by anyone (a payment link takes it from the address).
   */
  checkoutSessionIds?: string[];
  /**
   * Live subscriptions of the member's customer besides `subscriptionId`: a second checkout
   * that slipped through. The owner is shown them; deleting the account cancels them too.
   */
  otherSubscriptionIds?: string[];
  /** A free trial's end, and whether it started without a card (cancelled at its end unless one is added). */
  trialEnd?: Date | null;
  trialNeedsCard?: boolean;
  /** The discount applying to the subscription (a promotion code), as last read. */
  discount?: {
    code: string | null;
    name: string | null;
    percentOff: number | null;
    amountOff: number | null;
    currency: string | null;
    end: Date | null;
  } | null;
}

/**
 * A course the member bought on its own (a one-off Checkout), on their user document
 * (`purchases`): written only by the payments feature, from Stripe's word. It opens the course
 * whatever the member's tier until all of the payment is refunded (`refundedAt`).
 */
export interface CoursePurchase {
  courseId: string;
  /** The course's title when it was bought, for the users CSV and the Activity log. */
  courseTitle: string;
  priceId: string | null;
  checkoutSessionId: string;
  /** The provider's id of the payment: a refund names it. */
  paymentId: string;
  amount: number | null;
  currency: string | null;
  boughtAt: Date;
  refundedAt: Date | null;
}

/** The courses a member's purchases open now (none refunded). */
export const boughtCourseIds = (
  purchases: readonly Pick<CoursePurchase, 'courseId' | 'refundedAt'>[] | undefined,
) => (purchases ?? []).filter((purchase) => !purchase.refundedAt).map((purchase) => purchase.courseId);

/** The fields of a user document that hold billing, and the indexes over them (users.repository.ts). */
export const BILLING_FIELDS = {
  customerId: 'billing.customerId',
  subscriptionId: 'billing.subscriptionId',
  status: 'billing.status',
  checkoutSessionIds: 'billing.checkoutSessionIds',
  otherSubscriptionIds: 'billing.otherSubscriptionIds',
} as const;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** What leaves the server of a purchase: not the provider's ids (the console links to Stripe by customer). */
export function toPublicPurchase(purchase: CoursePurchase): PublicPurchase {
  return {
    courseId: purchase.courseId,
    courseTitle: purchase.courseTitle,
    amount: purchase.amount,
    currency: purchase.currency,
    boughtAt: purchase.boughtAt.toISOString(),
    refundedAt: iso(purchase.refundedAt),
  };
}

/** Whitelists what leaves the server. */
export function toPublicBilling(record: BillingRecord): PublicBilling {
  return {
    customerId: record.customerId ?? null,
    subscriptionId: record.subscriptionId ?? null,
    status: record.status ?? null,
    priceId: record.priceId ?? null,
    currentPeriodEnd: iso(record.currentPeriodEnd),
    cancelAtPeriodEnd: Boolean(record.cancelAtPeriodEnd),
    cancelAt: iso(record.cancelAt),
    endedAt: iso(record.endedAt),
    paymentFailedAt: iso(record.paymentFailedAt),
  };
}
