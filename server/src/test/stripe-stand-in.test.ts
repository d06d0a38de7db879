import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeStandIn, startStripeStandIn, stripePrice } from './stripe-stand-in';

let standIn: StripeStandIn;
let stripe: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  standIn.prices.set('price_monthly', stripePrice('price_monthly'));
  standIn.prices.set('price_once', stripePrice('price_once', { interval: null }));
  standIn.prices.set('price_archived', stripePrice('price_archived', { active: false }));
  standIn.prices.set('price_metered', stripePrice('price_metered', { usageType: 'metered' }));
  stripe = new Stripe(standIn.apiKey, {
    host: '127.0.0.1',
    port: standIn.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
});
afterAll(() => standIn.close());

const checkout = (price: string, quantity: number | undefined = 1) =>
  stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, ...(quantity === undefined ? {} : { quantity }) }],
    success_url: 'https://site.example/ok',
    cancel_url: 'https://site.example/no',
  });

describe('The Stripe stand-in refuses what Stripe refuses', () => {
  it('an unknown parameter, and a price checkout cannot sell as a subscription', async () => {
    await expect(
      stripe.customers.create({ email: 'a@b.c', nickname: 'x' } as Stripe.CustomerCreateParams),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: 'Received unknown parameter: nickname',
    });
    await expect(checkout('price_metered')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: expect.stringMatching(/Quantity should not be specified where usage_type is `metered`/),
    });
    await expect(checkout('price_once')).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
    await expect(checkout('price_archived')).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
    await expect(checkout('price_monthly')).resolves.toMatchObject({ object: 'checkout.session' });
  });

  it('an idempotency key reused with other parameters; the same request again gets the first answer', async () => {
    const first = await stripe.customers.create({ name: 'Ada' }, { idempotencyKey: 'k-1' });
    const again = await stripe.customers.create({ name: 'Ada' }, { idempotencyKey: 'k-1' });
    expect(again.id).toBe(first.id);
    await expect(
      stripe.customers.create({ name: 'Ada L.' }, { idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
  });

  it('a restricted key lacking a permission (403) and a rate limit (429)', async () => {
    standIn.forbidden.add('subscriptions');
    try {
      await expect(stripe.subscriptions.list({ limit: 1 })).rejects.toBeInstanceOf(
        Stripe.errors.StripePermissionError,
      );
      await expect(stripe.customers.list({ limit: 1 })).resolves.toMatchObject({ object: 'list' });
    } finally {
      standIn.forbidden.delete('subscriptions');
    }
    standIn.rateLimited = true;
    try {
      await expect(stripe.customers.list({ limit: 1 })).rejects.toBeInstanceOf(
        Stripe.errors.StripeRateLimitError,
      );
    } finally {
      standIn.rateLimited = false;
    }
  });

  it('a trial outside 1 to 730 days, card-less trials and subscription data outside subscription mode, a recurring price in payment mode', async () => {
    const base = {
      line_items: [{ price: 'price_monthly', quantity: 1 }],
      success_url: 'https://site.example/ok',
      cancel_url: 'https://site.example/no',
    };
    for (const days of [0, -1, 731])
      await expect(
        stripe.checkout.sessions.create({
          ...base,
          mode: 'subscription',
          subscription_data: { trial_period_days: days },
        }),
      ).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        param: 'subscription_data[trial_period_days]',
      });
    await expect(
      stripe.checkout.sessions.create({
        ...base,
        mode: 'subscription',
        payment_method_collection: 'if_required',
        subscription_data: {
          trial_period_days: 730,
          trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
        },
        allow_promotion_codes: true,
      }),
    ).resolves.toMatchObject({ object: 'checkout.session' });
    const once = { ...base, line_items: [{ price: 'price_once', quantity: 1 }], mode: 'payment' as const };
    await expect(
      stripe.checkout.sessions.create({ ...once, payment_method_collection: 'if_required' }),
    ).rejects.toMatchObject({
      param: 'payment_method_collection',
    });
    await expect(
      stripe.checkout.sessions.create({ ...once, subscription_data: { metadata: { a: 'b' } } }),
    ).rejects.toMatchObject({ param: 'subscription_data' });
    await expect(stripe.checkout.sessions.create({ ...base, mode: 'payment' })).rejects.toMatchObject({
      message: expect.stringMatching(/passed a recurring price/),
    });
    await expect(
      stripe.checkout.sessions.create({ ...once, payment_intent_data: { metadata: { courseId: 'c1' } } }),
    ).resolves.toMatchObject({ mode: 'payment' });
  });
});
