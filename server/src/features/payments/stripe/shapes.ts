import { describePlan, type PaymentPlan } from '@common/payment-plans';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@common/schemas/billing';
import type { PaymentsCheck } from '@common/schemas/payments';
import type Stripe from 'stripe';
import type { Discount, PaymentEvent, SubscriptionState } from '../payment-provider';
import { eventKindOf } from './events';

/*
 * Stripe's objects read into the port's shapes. Stripe's events are read loosely (fields may be
 * ids or expanded objects, and older API versions name some of them differently).
 */

type Loose = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
/** An expandable field: an id, or the object with its id. */
const idOf = (value: unknown): string | undefined =>
  text(value) ?? (value && typeof value === 'object' ? text((value as Loose).id) : undefined);
const dateOf = (seconds: unknown): Date | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;

export function priceCheck(price: Stripe.Price): PaymentsCheck {
  const label = `Price ${price.id}`;
  const described = describePlan(toPlan(price), 'en-GB');
  if (!price.active)
    return {
      label,
      outcome: 'failed',
      detail: `${described}, but it is archived in Stripe: members could not buy it.`,
    };
  if (!price.recurring)
    return {
      label,
      outcome: 'failed',
      detail: `${described}, paid once: membership is a subscription, so choose a recurring price.`,
    };
  if (price.recurring.usage_type === 'metered')
    return {
      label,
      outcome: 'failed',
      detail: `${described}, metered (billed by usage): Checkout refuses a quantity for it, so choose a price with a fixed amount per period.`,
    };
  return { label, outcome: 'ok', detail: `${described}, recurring.` };
}

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

export function toPlan(price: Stripe.Price): PaymentPlan {
  return {
    id: price.id,
    name: price.nickname ?? null,
    amount: typeof price.unit_amount === 'number' ? price.unit_amount : null,
    currency: price.currency ?? null,
    interval: INTERVALS.find((interval) => interval === price.recurring?.interval) ?? null,
    intervalCount: price.recurring?.interval_count ?? 1,
  };
}

/** Stripe's event in the site's words. Fields are read defensively: accounts pin older API versions. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const object = (event.data?.object ?? {}) as unknown as Loose;
  const base = {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    livemode: Boolean(event.livemode),
  };
  const kind = eventKindOf(event.type);
  if (kind === 'subscription-changed') {
    return {
      ...base,
      kind,
      subscriptionId: idOf(object.id),
      customerId: idOf(object.customer),
      userId: text((object.metadata as Loose | undefined)?.userId),
    };
  }
  if (kind === 'checkout-completed' && object.mode === 'payment') {
    // A course bought on its own; paid once Stripe says so (a bank debit pays later).
    const metadata = (object.metadata ?? {}) as Loose;
    if (object.payment_status !== 'paid' || !text(metadata.courseId)) return { ...base, kind: 'other' };
    return {
      ...base,
      kind: 'purchase-completed',
      userId: text(object.client_reference_id),
      checkoutSessionId: idOf(object.id),
      customerId: idOf(object.customer),
      paymentId: idOf(object.payment_intent),
      courseId: text(metadata.courseId),
      priceId: text(metadata.priceId),
    };
  }
  if (kind === 'purchase-refunded')
    return { ...base, kind, customerId: idOf(object.customer), paymentId: idOf(object.payment_intent) };
  if (kind === 'checkout-completed') {
    // A one-off payment made through another Checkout is not membership.
    if (object.mode !== 'subscription') return { ...base, kind: 'other' };
    return {
      ...base,
      kind,
      userId: text(object.client_reference_id),
      checkoutSessionId: idOf(object.id),
      customerId: idOf(object.customer),
      subscriptionId: idOf(object.subscription),
    };
  }
  if (kind === 'payment-succeeded' || kind === 'payment-failed') {
    const parent = object.parent as Loose | undefined;
    const details = parent?.subscription_details as Loose | undefined;
    return {
      ...base,
      kind,
      customerId: idOf(object.customer),
      // Newer API versions name it under parent.subscription_details; older ones on the invoice.
      subscriptionId: idOf(details?.subscription) ?? idOf(object.subscription),
      nextAttemptAt: dateOf(object.next_payment_attempt),
      attemptCount: typeof object.attempt_count === 'number' ? object.attempt_count : undefined,
    };
  }
  return { ...base, kind: 'other' };
}

export function toSubscriptionState(subscription: Stripe.Subscription): SubscriptionState {
  const loose = subscription as unknown as Loose;
  const items = (subscription.items?.data ?? []) as unknown as Loose[];
  // Newer API versions keep the period on each item; older ones on the subscription.
  const ends = items
    .map((item) => item.current_period_end)
    .filter((end): end is number => typeof end === 'number');
  const periodEnd = ends.length > 0 ? Math.min(...ends) : loose.current_period_end;
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(subscription.status)
    ? (subscription.status as SubscriptionStatus)
    : 'incomplete';
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status,
    userId: text(subscription.metadata?.userId),
    priceId: idOf(items[0]?.price) ?? null,
    priceIds: items.map((item) => idOf(item.price)).filter((price): price is string => Boolean(price)),
    currentPeriodEnd: dateOf(periodEnd),
    cancelAtPeriodEnd:
      Boolean(subscription.cancel_at_period_end) || typeof subscription.cancel_at === 'number',
    cancelAt: dateOf(subscription.cancel_at),
    endedAt: dateOf(subscription.ended_at),
    trialEnd: status === 'trialing' ? dateOf(subscription.trial_end) : null,
    trialNeedsCard:
      status === 'trialing' &&
      subscription.trial_settings?.end_behavior?.missing_payment_method === 'cancel' &&
      !subscription.default_payment_method,
    discount: discountOf(loose),
  };
}

/**
 * The discount applying now: the current API lists them (`discounts`, expanded by the read with
 * their coupon and code), older ones kept one (`discount`, the coupon on it directly).
 */
function discountOf(subscription: Loose): Discount | null {
  const listed = Array.isArray(subscription.discounts) ? (subscription.discounts as unknown[]) : [];
  const found = [...listed, subscription.discount].find(
    (discount): discount is Loose => Boolean(discount) && typeof discount === 'object',
  );
  if (!found) return null;
  const end = dateOf(found.end);
  if (end && end.getTime() <= Date.now()) return null;
  const source = found.source as Loose | undefined;
  const coupon = (source?.coupon ?? found.coupon) as Loose | string | undefined;
  const promotion = found.promotion_code as Loose | string | undefined;
  const couponFields = coupon && typeof coupon === 'object' ? coupon : {};
  return {
    code: promotion && typeof promotion === 'object' ? (text(promotion.code) ?? null) : null,
    name: text(couponFields.name) ?? null,
    percentOff: typeof couponFields.percent_off === 'number' ? couponFields.percent_off : null,
    amountOff: typeof couponFields.amount_off === 'number' ? couponFields.amount_off : null,
    currency: text(couponFields.currency) ?? null,
    end,
  };
}
