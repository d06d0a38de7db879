import { randomBytes } from 'node:crypto';

/*
 * The stand-in's Checkout rules beyond the price (stripe-stand-in.ts): the parameters of a
 * subscription's trial, promotion codes and payment mode, refused as Stripe refuses them, and the
 * objects a paid session leaves (a trial's subscription fields, a promotion code's discount, a
 * one-off payment's payment intent and charge).
 */

type StripeObject = Record<string, unknown> & { id: string };
export interface Refusal {
  message: string;
  param: string;
}

const DAY_S = 24 * 60 * 60;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** Stripe's limit on `subscription_data[trial_period_days]`. */
const MAX_TRIAL_DAYS = 730;
const SUBSCRIPTION_DATA = [
  'metadata',
  'trial_period_days',
  'trial_end',
  'trial_settings',
  'description',
  'billing_cycle_anchor',
  'default_tax_rates',
  'proration_behavior',
  'invoice_settings',
  'application_fee_percent',
  'on_behalf_of',
  'transfer_data',
  'billing_mode',
];
const PAYMENT_INTENT_DATA = [
  'metadata',
  'description',
  'receipt_email',
  'statement_descriptor',
  'setup_future_usage',
  'capture_method',
];
const MISSING_PAYMENT_METHOD = ['cancel', 'create_invoice', 'pause'];

/** Why Stripe would refuse these Checkout parameters (beyond the price), or null. */
export function checkoutRefusal(body: Record<string, string>): Refusal | null {
  const mode = body.mode;
  if (!['payment', 'subscription', 'setup'].includes(mode ?? ''))
    return { message: `Invalid mode: must be one of payment, setup, or subscription`, param: 'mode' };
  const nested = (prefix: string) =>
    Object.keys(body)
      .filter((key) => key.startsWith(`${prefix}[`))
      .map((key) => key.slice(prefix.length + 1).split(']')[0]!);
  const subscriptionData = nested('subscription_data');
  if (subscriptionData.length > 0 && mode !== 'subscription')
    return {
      message: `You can not pass \`subscription_data\` in \`${mode}\` mode.`,
      param: 'subscription_data',
    };
  const paymentIntentData = nested('payment_intent_data');
  if (paymentIntentData.length > 0 && mode !== 'payment')
    return {
      message: `You can not pass \`payment_intent_data\` in \`${mode}\` mode.`,
      param: 'payment_intent_data',
    };
  for (const [names, known, prefix] of [
    [subscriptionData, SUBSCRIPTION_DATA, 'subscription_data'],
    [paymentIntentData, PAYMENT_INTENT_DATA, 'payment_intent_data'],
  ] as const) {
    const unknown = names.find((name) => !known.includes(name));
    if (unknown)
      return { message: `Received unknown parameter: ${prefix}[${unknown}]`, param: `${prefix}[${unknown}]` };
  }
  const trialDays = body['subscription_data[trial_period_days]'];
  if (trialDays !== undefined) {
    const days = Number(trialDays);
    if (!/^-?\d+$/.test(trialDays))
      return { message: `Invalid integer: ${trialDays}`, param: 'subscription_data[trial_period_days]' };
    if (days < 1)
      return {
        message: 'The minimum number of trial period days is 1.',
        param: 'subscription_data[trial_period_days]',
      };
    if (days > MAX_TRIAL_DAYS)
      return {
        message: `The maximum number of trial period days is ${MAX_TRIAL_DAYS} (2 years).`,
        param: 'subscription_data[trial_period_days]',
      };
  }
  const endBehavior = body['subscription_data[trial_settings][end_behavior][missing_payment_method]'];
  const trialSettings = Object.keys(body).filter((key) =>
    key.startsWith('subscription_data[trial_settings]'),
  );
  if (trialSettings.some((key) => !key.endsWith('[end_behavior][missing_payment_method]')))
    return {
      message: 'Received unknown parameter: subscription_data[trial_settings]',
      param: trialSettings[0]!,
    };
  if (endBehavior !== undefined && !MISSING_PAYMENT_METHOD.includes(endBehavior))
    return {
      message: `Invalid subscription_data[trial_settings][end_behavior][missing_payment_method]: must be one of ${MISSING_PAYMENT_METHOD.join(', ')}`,
      param: 'subscription_data[trial_settings][end_behavior][missing_payment_method]',
    };
  const collection = body.payment_method_collection;
  if (collection !== undefined && !['always', 'if_required'].includes(collection))
    return {
      message: 'Invalid payment_method_collection: must be one of always or if_required',
      param: 'payment_method_collection',
    };
  if (collection === 'if_required' && mode !== 'subscription' && mode !== 'setup')
    return {
      message:
        '`payment_method_collection` can only be set to `if_required` in `subscription` or `setup` mode.',
      param: 'payment_method_collection',
    };
  const promotions = body.allow_promotion_codes;
  if (promotions !== undefined && !['true', 'false'].includes(promotions))
    return { message: 'Invalid boolean: allow_promotion_codes', param: 'allow_promotion_codes' };
  if (promotions === 'true' && Object.keys(body).some((key) => key.startsWith('discounts')))
    return {
      message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
      param: 'allow_promotion_codes',
    };
  return null;
}

/** A recurring price in payment mode, or a one-off in subscription mode, refused as Stripe does. */
export function priceModeRefusal(mode: string | undefined, recurring: boolean): string | null {
  if (mode === 'subscription' && !recurring)
    return 'You must provide at least one recurring price in `subscription` mode when using prices.';
  if (mode === 'payment' && recurring)
    return 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.';
  return null;
}

/** A promotion code the owner made: its coupon, as Stripe's discount carries it. */
export interface StandInPromotion {
  code: string;
  percentOff?: number;
  amountOff?: number;
  currency?: string;
  name?: string;
  /** The discount lasts this many months (a `repeating` coupon); absent: for good. */
  months?: number;
}

/** What a session of subscription mode makes of its trial and promotion code: the subscription's fields. */
export function trialAndDiscount(
  session: StripeObject,
  promotion: StandInPromotion | undefined,
  card: boolean,
): Record<string, unknown> {
  const fields: Record<string, unknown> = { default_payment_method: card ? id('pm') : null };
  const days = Number(session.trialDays ?? 0);
  if (days > 0) {
    const end = nowSeconds() + days * DAY_S;
    Object.assign(fields, { status: 'trialing', trial_start: nowSeconds(), trial_end: end });
    if (session.trialEndBehavior)
      fields.trial_settings = { end_behavior: { missing_payment_method: session.trialEndBehavior } };
  }
  if (promotion && session.allowPromotionCodes) {
    const coupon = {
      id: id('coupon'),
      object: 'coupon',
      name: promotion.name ?? null,
      percent_off: promotion.percentOff ?? null,
      amount_off: promotion.amountOff ?? null,
      currency: promotion.currency ?? null,
      duration: promotion.months ? 'repeating' : 'forever',
      duration_in_months: promotion.months ?? null,
      valid: true,
    };
    fields.discounts = [
      {
        id: id('di'),
        object: 'discount',
        checkout_session: session.id,
        customer: session.customer,
        end: promotion.months ? nowSeconds() + promotion.months * 30 * DAY_S : null,
        promotion_code: { id: id('promo'), object: 'promotion_code', code: promotion.code, active: true },
        source: { type: 'coupon', coupon },
        start: nowSeconds(),
        subscription: null,
      },
    ];
  }
  return fields;
}

/** A subscription's discounts as Stripe sends them: ids unless `expand` asks for them whole. */
export function withDiscountsAsAsked(subscription: StripeObject, body: Record<string, string>): StripeObject {
  const discounts = subscription.discounts as Array<StripeObject> | undefined;
  if (!discounts?.length) return { ...subscription, discounts: [] };
  const expand = Object.entries(body)
    .filter(([name]) => name.startsWith('expand'))
    .map(([, value]) => value);
  if (!expand.includes('discounts'))
    return { ...subscription, discounts: discounts.map((discount) => discount.id) };
  return {
    ...subscription,
    discounts: discounts.map((discount) => ({
      ...discount,
      promotion_code: expand.includes('discounts.promotion_code')
        ? discount.promotion_code
        : (discount.promotion_code as StripeObject).id,
      source: {
        type: 'coupon',
        coupon: expand.includes('discounts.source.coupon')
          ? (discount.source as { coupon: StripeObject }).coupon
          : (discount.source as { coupon: StripeObject }).coupon.id,
      },
    })),
  };
}

/** A one-off payment of a session in payment mode: its payment intent and the charge that took it. */
export function oneOffPayment(session: StripeObject, amount: number, currency: string) {
  const paymentIntentId = id('pi');
  const charge: StripeObject = {
    id: id('ch'),
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: 0,
    currency,
    customer: session.customer,
    paid: true,
    payment_intent: paymentIntentId,
    refunded: false,
    status: 'succeeded',
    livemode: false,
  };
  const paymentIntent: StripeObject = {
    id: paymentIntentId,
    object: 'payment_intent',
    amount,
    amount_received: amount,
    currency,
    customer: session.customer,
    latest_charge: charge.id,
    metadata: session.paymentIntentMetadata ?? {},
    status: 'succeeded',
    livemode: false,
  };
  return { charge, paymentIntent };
}
