import type { PaymentEventKind } from '../payment-provider';

/**
 * The one table of Stripe's events: each event the site acts on, with what it is in the site's
 * words (the port's `PaymentEventKind`). The owner registers these at Stripe for the webhook
 * (`WEBHOOK_EVENTS`, shown in the console's Payments section), and the parser (`shapes.ts`) reads
 * events by them. README.md and docs/payments.md list the same names for the owner.
 */
export const STRIPE_EVENTS = {
  'checkout.session.completed': 'checkout-completed',
  // A course paid by a slower method (a bank debit) is paid only when this comes.
  'checkout.session.async_payment_succeeded': 'checkout-completed',
  'customer.subscription.created': 'subscription-changed',
  'customer.subscription.updated': 'subscription-changed',
  'customer.subscription.deleted': 'subscription-changed',
  'invoice.paid': 'payment-succeeded',
  'invoice.payment_failed': 'payment-failed',
  'charge.refunded': 'purchase-refunded',
} as const satisfies Record<string, PaymentEventKind>;

export type StripeEventType = keyof typeof STRIPE_EVENTS;

/** The events the site acts on, in the table's order; the owner registers these at Stripe for the webhook address. */
export const WEBHOOK_EVENTS = Object.keys(STRIPE_EVENTS) as readonly StripeEventType[];

/**
 * Read as well, though never asked for: the name older API versions give `invoice.paid`, and
 * every other event about a subscription (an owner may register more of them than the table's).
 */
const OLDER_NAMES: Record<string, PaymentEventKind> = { 'invoice.payment_succeeded': 'payment-succeeded' };
const SUBSCRIPTION_EVENTS = 'customer.subscription.';

/** What a Stripe event is in the site's words: `other` for one the site does not act on. */
export function eventKindOf(type: string): PaymentEventKind {
  if (type.startsWith(SUBSCRIPTION_EVENTS)) return 'subscription-changed';
  return (STRIPE_EVENTS as Record<string, PaymentEventKind>)[type] ?? OLDER_NAMES[type] ?? 'other';
}
