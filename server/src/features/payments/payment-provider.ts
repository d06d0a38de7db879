import type { PaymentPlan, PriceListing } from '@common/payment-plans';
import type { SubscriptionStatus } from '@common/schemas/billing';
import type { PaymentsCheck } from '@common/schemas/payments';

/**
 * The payment provider port. The site never sees a card: the provider's own pages take the
 * payment (checkout) and let members manage it (portal); the provider tells the site what
 * happened through signed events. Stripe is the one adapter (stripe/provider.ts); another
 * provider implements this interface and nothing else changes.
 */
export interface PaymentProvider {
  /**
   * A subscription checkout for one member: their existing customer, else a new one made for
   * them (returned, so it is kept and reused). The member goes to `url`. `sessionId` is recorded
   * on the member: only a checkout the site opened for them may link a subscription to them.
   */
  createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string; sessionId: string }>;
  /**
   * A one-off checkout of one course at its price (the member's customer, as for a subscription).
   * The course is named in the session's metadata, which the site trusts only because it records
   * the session on the member before they can pay.
   */
  createCourseCheckout(
    input: CourseCheckoutInput,
  ): Promise<{ url: string; customerId: string; sessionId: string }>;
  /** A one-off payment as it is now: paid, and whether all of it was refunded; null when unknown. */
  readPayment(paymentId: string): Promise<PaymentState | null>;
  /** The provider's billing portal for a customer, coming back to `returnUrl`. */
  createPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * Checks an event's signature over its raw body (and its age), and reads it. Throws
   * InvalidEventError when the signature, the age or the body is wrong.
   */
  verifyEvent(payload: Buffer, signature: string | undefined): Promise<PaymentEvent>;
  /** The subscription as it is now at the provider; null when the provider has no such subscription. */
  readSubscription(id: string): Promise<SubscriptionState | null>;
  /**
   * Every subscription of a customer that has not ended (whatever its price), as it is now: a
   * member who has one is sent to the portal rather than a second checkout, and deleting their
   * account cancels them all.
   */
  listLiveSubscriptions(customerId: string): Promise<SubscriptionState[]>;
  /**
   * Ends a subscription at once: no further charge, no final invoice (an account being deleted).
   * Answers the subscription as it ended; null when the provider has no such subscription. One
   * that had already ended is not an error. Throws ProviderError when the provider cannot be
   * reached or refuses.
   */
  cancelSubscription(id: string, reason: string): Promise<SubscriptionState | null>;
  /** The prices members can choose, as the provider describes them (unknown ones are left out). */
  readPlans(priceIds: readonly string[]): Promise<PaymentPlan[]>;
  /** Every price of the owner's account in the key's mode, active and archived: the console's price list. */
  listPrices(): Promise<PriceListing[]>;
  /** One price, or why the provider has none (`other-mode`: it exists only in the other mode, live or test). */
  readPrice(id: string): Promise<PriceReading>;
  /** Whether the provider accepts the key and the prices exist and recur, in plain words. */
  test(priceIds: readonly string[]): Promise<PaymentsCheck[]>;
}

/** Who pays, and where they come back to: the parts of any checkout. */
export interface CheckoutBase {
  userId: string;
  email: string;
  name: string;
  customerId?: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CourseCheckoutInput extends CheckoutBase {
  courseId: string;
}

/** A one-off payment (a course bought on its own) as the provider holds it now. */
export interface PaymentState {
  id: string;
  paid: boolean;
  /** All of it was given back (a partial refund leaves the course open). */
  refunded: boolean;
  amount: number | null;
  currency: string | null;
}

export type PriceReading = { price: PriceListing } | { missing: 'absent' | 'other-mode' };

export interface CheckoutInput extends CheckoutBase {
  /** Checkout takes the promotion codes the owner made at the provider. */
  promotionCodes: boolean;
  /** A free trial before the first payment; `withoutCard`: no card asked, cancelled at its end if none is added. */
  trial: { days: number; withoutCard: boolean } | null;
}

/** What the site does with an event; the provider's own type name is kept for the Activity log. */
export type PaymentEventKind =
  /** A checkout finished: links the customer and the subscription to the member. */
  | 'checkout-completed'
  /** A subscription was created, changed or ended. */
  | 'subscription-changed'
  /** An invoice was paid: a subscription recovering from a failed payment becomes active. */
  | 'payment-succeeded'
  /** A payment failed: the owner is told; the subscription turns past due. */
  | 'payment-failed'
  /** A course bought on its own was paid for (a finished checkout in payment mode). */
  | 'purchase-completed'
  /** A payment was refunded: a course bought with it closes again once all of it is. */
  | 'purchase-refunded'
  /** Anything else: acknowledged, nothing done. */
  | 'other';

export interface PaymentEvent {
  id: string;
  /** The provider's name for it (`checkout.session.completed`). */
  type: string;
  kind: PaymentEventKind;
  /** When the provider made it. */
  created: Date;
  livemode: boolean;
  /**
   * The member named by a finished checkout (`client_reference_id`). Anyone can set it (a
   * payment link takes it from the address), so it counts only with `checkoutSessionId`, a
   * checkout the site recorded for that member.
   */
  userId?: string;
  /** A finished checkout: the provider's id of the checkout session. */
  checkoutSessionId?: string;
  customerId?: string;
  subscriptionId?: string;
  /** A one-off payment (a course's): the provider's id of it. */
  paymentId?: string;
  /** A course bought on its own: the course and price the site's checkout named (trusted only for a checkout the site opened). */
  courseId?: string;
  priceId?: string;
  /** Failed payments: when the provider tries again (null: it will not). */
  nextAttemptAt?: Date | null;
  attemptCount?: number;
}

/** A subscription as the provider holds it now. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  /** The member the checkout was made for (kept in the subscription's metadata; for the log only). */
  userId?: string;
  /** The price of its first item. */
  priceId: string | null;
  /** The prices of all its items: only the site's own prices make or keep a member paid. */
  priceIds: string[];
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  endedAt: Date | null;
  /** The end of a free trial, if it has one. */
  trialEnd: Date | null;
  /** On trial with no card, set to be cancelled at the trial's end unless one is added. */
  trialNeedsCard: boolean;
  /** The discount applying now (a promotion code), if any. */
  discount: Discount | null;
}

export interface Discount {
  code: string | null;
  name: string | null;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  end: Date | null;
}

/** A refused event: a bad or stale signature, or a body that is not an event. Nothing is done with it. */
export class InvalidEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

/**
 * The provider refused or could not be reached. `message` is in plain words for the person; it
 * never quotes a key. `retryable`: worth trying again later (network, the provider's own trouble).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** For the server log: the provider's error type and code, never a key. */
    readonly details: Record<string, string | number | undefined> = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
