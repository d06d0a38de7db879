import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WEBHOOK_SECRET } from '../../test/stripe-events';
import { type StripeStandIn, startStripeStandIn, stripePrice } from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

let stripe: StripeStandIn;
let t: TestApp | undefined;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly', { amount: 1500, nickname: 'Monthly' }));
  stripe.prices.set('price_yearly', stripePrice('price_yearly', { amount: 15000, interval: 'year' }));
  stripe.prices.set(
    'price_course',
    stripePrice('price_course', { amount: 4900, interval: null, product: 'Drawing course' }),
  );
  stripe.prices.set('price_old', stripePrice('price_old', { amount: 900, active: false }));
  stripe.prices.set('price_metered', stripePrice('price_metered', { usageType: 'metered' }));
  stripe.otherModePrices.add('price_live_only');
});
afterAll(() => stripe.close());
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function site({ connected = true } = {}) {
  t = await createTestApp({ STRIPE_API_BASE: stripe.url });
  const admin = await createUser(t, { role: 'admin' });
  const headers = await confirmed(t, admin.token);
  if (connected)
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/payments/settings',
      headers,
      payload: { secretKey: stripe.apiKey, webhookSecret: TEST_WEBHOOK_SECRET, priceIds: ['price_monthly'] },
    });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t!.app.inject({ method, url: `/api/admin/payments${url}`, headers, payload });
  return { t, admin, call };
}

describe('The owner’s price list', () => {
  it('lists every price in Stripe with its amount, currency, interval and product, archived ones marked', async () => {
    const { call } = await site();
    const answer = await call('GET', '/prices');
    expect(answer.statusCode).toBe(200);
    const { mode, prices } = answer.json().data;
    expect(mode).toBe('test');
    const byId = Object.fromEntries(prices.map((price: { id: string }) => [price.id, price]));
    expect(byId.price_monthly).toMatchObject({
      amount: 1500,
      currency: 'gbp',
      interval: 'month',
      name: 'Monthly',
      product: 'Architect Tier',
      kind: 'recurring',
      archived: false,
    });
    expect(byId.price_yearly).toMatchObject({ amount: 15000, interval: 'year', kind: 'recurring' });
    expect(byId.price_course).toMatchObject({ interval: null, kind: 'one-time', product: 'Drawing course' });
    expect(byId.price_old).toMatchObject({ archived: true });
    expect(byId.price_metered).toMatchObject({ kind: 'metered' });
  });

  it('is refused until Stripe is connected, in plain words', async () => {
    const { call } = await site({ connected: false });
    const answer = await call('GET', '/prices');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/Connect Stripe first/);
  });

  it('refuses to save a price that does not exist, belongs to the live mode, or cannot be subscribed to; nothing changes', async () => {
    const { t, call } = await site();
    const file = path.join(t.dataDir, 'payments.json');
    const before = await readFile(file, 'utf8');
    const cases: Array<[string, RegExp]> = [
      ['price_missing', /Stripe has no price price_missing in test mode/],
      ['price_live_only', /price of Stripe’s live mode, but the key is a test-mode key/],
      ['price_course', /paid once: membership needs a recurring price/],
      ['price_old', /archived in Stripe/],
      ['price_metered', /metered/],
    ];
    for (const [priceId, message] of cases) {
      const refused = await call('POST', '/settings', { priceIds: ['price_monthly', priceId] });
      expect(refused.statusCode, priceId).toBe(400);
      expect(refused.json().message).toMatch(message);
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    const yearly = await call('POST', '/settings', { priceIds: ['price_monthly', 'price_yearly'] });
    expect(yearly.json().data.priceIds).toEqual(['price_monthly', 'price_yearly']);
  });

  it('Test names a price of the other mode as such', async () => {
    const { call } = await site();
    const result = (await call('POST', '/test', { priceIds: ['price_live_only'] })).json().data;
    expect(result.checks).toContainEqual({
      label: 'Price price_live_only',
      outcome: 'failed',
      detail: expect.stringMatching(/price of Stripe’s live mode, but the key is a test-mode key/),
    });
  });

  it('is for administrators only', async () => {
    const { t } = await site();
    const member = await createUser(t);
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payments/prices',
      headers: bearer(member.token),
    });
    expect(answer.statusCode).toBe(403);
  });
});
