import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutCompleted,
  type StripeEventFixture,
  signed,
  subscriptionEvent,
  TEST_WEBHOOK_SECRET,
} from '../../test/stripe-events';
import { type StripeStandIn, startStripeStandIn, stripePrice } from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

/** Promotion codes and a free trial: the owner's switches, what Checkout is asked, what the member sees. */
let stripe: StripeStandIn;
let t: TestApp | undefined;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly', { amount: 1200 }));
  stripe.promotionCodes.set('SPRING', { code: 'SPRING', percentOff: 20, months: 3, name: 'Spring' });
});
afterAll(() => stripe.close());
afterEach(async () => {
  await t?.close();
  t = undefined;
  stripe.calls.length = 0;
});

async function site({ connected = true } = {}) {
  t = await createTestApp({
    STRIPE_API_BASE: stripe.url,
    ...(connected
      ? {
          STRIPE_SECRET_KEY: stripe.apiKey,
          STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
          STRIPE_PRICE_IDS: 'price_monthly',
        }
      : {}),
  });
  const admin = await createUser(t, { role: 'admin' });
  const headers = await confirmed(t, admin.token);
  const app = t;
  const settings = (payload: object) =>
    app.app.inject({ method: 'POST', url: '/api/admin/payments/settings', headers, payload });
  return { t: app, settings };
}

const deliver = (app: TestApp, event: StripeEventFixture) => {
  const { payload, header } = signed(event);
  return app.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
};
const me = async (app: TestApp, token: string) =>
  (await app.app.inject({ method: 'GET', url: '/api/payments/me', headers: bearer(token) })).json().data;
const stored = async (app: TestApp, id: string) =>
  (await app.store.collection<UserDoc>('users').findById(id))!;
const sessionCall = () => stripe.calls.filter((call) => call.path === '/v1/checkout/sessions').at(-1)!;

/** A member checks out, pays on Stripe's page (with a code), and Stripe's events arrive in the order given. */
async function subscribe(app: TestApp, options: { promotionCode?: string; reverse?: boolean } = {}) {
  const member = await createUser(app);
  const opened = await app.app.inject({
    method: 'POST',
    url: '/api/payments/checkout',
    headers: bearer(member.token),
    payload: {},
  });
  expect(opened.statusCode).toBe(200);
  const sessionId = String(opened.json().url).split('/').pop()!;
  const { subscription } = stripe.pay(sessionId, 'active', { promotionCode: options.promotionCode });
  const events = [
    checkoutCompleted({
      userId: member.user._id,
      customer: String(subscription.customer),
      subscription: subscription.id,
      sessionId,
    }),
    subscriptionEvent('created', subscription),
  ];
  for (const event of options.reverse ? events.reverse() : events)
    expect((await deliver(app, event)).statusCode).toBe(200);
  return { member, subscription };
}

describe('Promotion codes', () => {
  it('are refused while Stripe is not connected, and nothing is saved', async () => {
    const { t, settings } = await site({ connected: false });
    const refused = await settings({ promotionCodes: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/Promotion codes need Stripe connected/);
    await expect(readFile(path.join(t.dataDir, 'payments.json'), 'utf8')).rejects.toThrow();
  });

  it('switched on, Checkout takes codes, and the member sees the discount while it applies', async () => {
    const { t, settings } = await site();
    const { member: before } = await subscribe(t);
    expect(sessionCall().body.allow_promotion_codes).toBeUndefined();
    expect((await settings({ promotionCodes: true })).json().data.promotionCodes).toBe(true);

    const { member } = await subscribe(t, { promotionCode: 'SPRING' });
    expect(sessionCall().body.allow_promotion_codes).toBe('true');
    const discount = (await me(t, member.token)).subscription.discount;
    expect(discount).toMatchObject({ code: 'SPRING', name: 'Spring', percentOff: 20, amountOff: null });
    expect(new Date(discount.end).getTime()).toBeGreaterThan(Date.now() + 80 * DAY_MS);
    expect((await me(t, before.token)).subscription.discount).toBeNull();

    // Once it has ended, it is not shown.
    await t.store
      .collection<UserDoc>('users')
      .updateById(member.user._id, { 'billing.discount.end': new Date(Date.now() - 1000) } as never);
    expect((await me(t, member.token)).subscription.discount).toBeNull();
  });
});

describe('A free trial', () => {
  it('refuses 0, -1, 1,000 and 1.5 days in plain words, and nothing is saved', async () => {
    const { t, settings } = await site();
    for (const days of [0, -1, 1000, 1.5]) {
      const refused = await settings({ trialDays: days });
      expect(refused.statusCode, String(days)).toBe(400);
      expect(refused.json().message).toMatch(/A free trial lasts 1 to 730 days/);
    }
    await expect(readFile(path.join(t.dataDir, 'payments.json'), 'utf8')).rejects.toThrow();
    expect((await settings({ trialDays: 730 })).json().data.trialDays).toBe(730);
    expect((await settings({ trialDays: null })).json().data.trialDays).toBeNull();
  });

  it('with a card: Checkout asks Stripe for the trial, the member is paid (trialing) and sees when it ends', async () => {
    const { t, settings } = await site();
    await settings({ trialDays: 14 });
    const { member } = await subscribe(t, { reverse: true });
    const body = sessionCall().body;
    expect(body['subscription_data[trial_period_days]']).toBe('14');
    expect(body.payment_method_collection).toBeUndefined();
    expect(body['subscription_data[trial_settings][end_behavior][missing_payment_method]']).toBeUndefined();
    const user = await stored(t, member.user._id);
    expect(user.membershipTier).toBe('paid');
    expect(user.billing?.status).toBe('trialing');
    const seen = (await me(t, member.token)).subscription;
    expect(seen).toMatchObject({ status: 'trialing', trialNeedsCard: false });
    expect(Math.round((new Date(seen.trialEnd).getTime() - Date.now()) / DAY_MS)).toBe(14);
  });

  it('without a card: no card asked, cancelled at its end by Stripe, and the member becomes free', async () => {
    const { t, settings } = await site();
    await settings({ trialDays: 7, trialWithoutCard: true });
    const { member, subscription } = await subscribe(t);
    expect(sessionCall().body).toMatchObject({
      payment_method_collection: 'if_required',
      'subscription_data[trial_period_days]': '7',
      'subscription_data[trial_settings][end_behavior][missing_payment_method]': 'cancel',
    });
    expect((await me(t, member.token)).subscription).toMatchObject({
      status: 'trialing',
      trialNeedsCard: true,
    });

    // Stripe's reminder three days before the end is only a prompt: still paid.
    expect((await deliver(t, subscriptionEvent('trial_will_end' as never, subscription))).statusCode).toBe(
      200,
    );
    expect((await stored(t, member.user._id)).membershipTier).toBe('paid');

    // No card by the end: Stripe cancels it.
    Object.assign(subscription, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
    expect((await deliver(t, subscriptionEvent('deleted', subscription))).statusCode).toBe(200);
    const user = await stored(t, member.user._id);
    expect(user.membershipTier).toBe('free');
    expect((await me(t, member.token)).subscription).toMatchObject({ status: 'canceled', trialEnd: null });
  });

  it('is not given again to a member coming back', async () => {
    const { t, settings } = await site();
    await settings({ trialDays: 7 });
    const { member, subscription } = await subscribe(t);
    Object.assign(subscription, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
    await deliver(t, subscriptionEvent('deleted', subscription));
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers: bearer(member.token),
      payload: {},
    });
    expect(sessionCall().body['subscription_data[trial_period_days]']).toBeUndefined();
  });
});
