import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * Stripe events for tests, in the shapes Stripe documents (an `event` wrapping the object it is
 * about), signed the way Stripe signs them (`stripe.webhooks.generateTestHeaderString`).
 */
export const TEST_WEBHOOK_SECRET = 'whsec_standin_test_secret_0123456789';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export interface StripeEventFixture {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  { eventId, created }: { eventId?: string; created?: number } = {},
): StripeEventFixture {
  return {
    id: eventId ?? id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** A finished checkout; `sessionId` is the session's id (a made-up one when not given: one the site never opened). */
export function checkoutCompleted(fields: {
  userId: string;
  customer: string;
  subscription: string;
  sessionId?: string;
}) {
  return stripeEvent('checkout.session.completed', {
    id: fields.sessionId ?? id('cs_test'),
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: fields.userId,
    customer: fields.customer,
    subscription: fields.subscription,
    metadata: { userId: fields.userId },
    livemode: false,
  });
}

export function subscriptionEvent(
  type: 'created' | 'updated' | 'deleted',
  subscription: Record<string, unknown>,
  options: { created?: number; eventId?: string } = {},
) {
  return stripeEvent(`customer.subscription.${type}`, subscription, options);
}

/** An invoice of the current API: its subscription under parent.subscription_details. */
export function invoiceEvent(
  type: 'invoice.paid' | 'invoice.payment_failed',
  fields: { customer: string; subscription: string; attemptCount?: number; nextAttempt?: number | null },
) {
  return stripeEvent(type, {
    id: id('in'),
    object: 'invoice',
    customer: fields.customer,
    status: type === 'invoice.paid' ? 'paid' : 'open',
    attempt_count: fields.attemptCount ?? 1,
    next_payment_attempt: fields.nextAttempt === undefined ? nowSeconds() + 3 * 86_400 : fields.nextAttempt,
    amount_due: 1200,
    currency: 'gbp',
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: fields.subscription, metadata: {} },
    },
  });
}

/** The body and the Stripe-Signature header of a delivery, signed `secondsAgo` seconds ago. */
export function signed(event: StripeEventFixture, { secret = TEST_WEBHOOK_SECRET, secondsAgo = 0 } = {}) {
  const payload = JSON.stringify(event, null, 2);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: nowSeconds() - secondsAgo,
  });
  return { payload, header };
}

/** A finished checkout of one course (payment mode), as the site's checkout names it in the metadata. */
export function courseCheckoutCompleted(fields: {
  userId: string;
  customer: string;
  sessionId?: string;
  paymentIntent: string;
  courseId: string;
  priceId: string;
}) {
  return stripeEvent('checkout.session.completed', {
    id: fields.sessionId ?? id('cs_test'),
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: fields.userId,
    customer: fields.customer,
    payment_intent: fields.paymentIntent,
    subscription: null,
    metadata: { userId: fields.userId, courseId: fields.courseId, priceId: fields.priceId },
    livemode: false,
  });
}

/** A charge refunded in Stripe's dashboard (in full or in part: the charge says which). */
export function chargeRefunded(charge: Record<string, unknown>) {
  return stripeEvent('charge.refunded', charge);
}
