import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_WEBHOOK_SECRET } from '../../test/stripe-events';
import {
  type StripeStandIn,
  startStripeStandIn,
  stripePrice,
  stripeSubscription,
} from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

const SITE = 'https://members.example.com';
let stripe: StripeStandIn;
let t: TestApp;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly', { amount: 1200, interval: 'month' }));
  stripe.prices.set('price_yearly', stripePrice('price_yearly', { amount: 12000, interval: 'year' }));
});
afterAll(() => stripe.close());
beforeEach(async () => {
  stripe.calls.length = 0;
  t = await createTestApp({
    PUBLIC_URL: SITE,
    STRIPE_SECRET_KEY: stripe.apiKey,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_PRICE_IDS: 'price_monthly, price_yearly',
    STRIPE_API_BASE: stripe.url,
  });
});
afterEach(() => t.close());

const post = (token: string, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/payments${url}`, headers: bearer(token), payload });
const stored = async (id: string) => (await t.store.collection<UserDoc>('users').findById(id))!;
const callsTo = (path: string) => stripe.calls.filter((call) => call.path === path);

describe('GET /api/payments/plans', () => {
  it('tells anyone whether members can upgrade, with each price as Stripe describes it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/payments/plans' });
    expect(response.json()).toEqual({
      success: true,
      available: true,
      plans: [
        {
          id: 'price_monthly',
          name: null,
          amount: 1200,
          currency: 'gbp',
          interval: 'month',
          intervalCount: 1,
        },
        {
          id: 'price_yearly',
          name: null,
          amount: 12000,
          currency: 'gbp',
          interval: 'year',
          intervalCount: 1,
        },
      ],
    });
    // Asked again, the prices come from memory: strangers cannot make the site call Stripe at will.
    await t.app.inject({ method: 'GET', url: '/api/payments/plans' });
    expect(callsTo('/v1/prices/price_monthly')).toHaveLength(1);
  });
});

describe('POST /api/payments/checkout', () => {
  it('starts a subscription checkout for the signed-in member and keeps their new Stripe customer', async () => {
    const member = await createUser(t, { name: 'Ada Lovelace' });
    const response = await post(member.token, '/checkout', {
      priceId: 'price_yearly',
      returnPath: '/account',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));

    const [customer] = callsTo('/v1/customers');
    expect(customer?.body).toMatchObject({
      email: member.user.email,
      name: 'Ada Lovelace',
      'metadata[userId]': member.user._id,
    });
    expect(customer?.idempotencyKey).toBeTruthy();
    const [session] = callsTo('/v1/checkout/sessions');
    const customerId = (await stored(member.user._id)).billing?.customerId;
    expect(customerId).toMatch(/^cus_/);
    expect(session?.body).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: member.user._id,
      'line_items[0][price]': 'price_yearly',
      'line_items[0][quantity]': '1',
      success_url: `${SITE}/account?checkout=success`,
      cancel_url: `${SITE}/account?checkout=cancelled`,
      'subscription_data[metadata][userId]': member.user._id,
    });

    // A second try (a second tab) reuses the customer: one member, one customer.
    await post(member.token, '/checkout', {});
    expect(callsTo('/v1/customers')).toHaveLength(1);
    expect(callsTo('/v1/checkout/sessions')[1]?.body).toMatchObject({
      customer: customerId,
      'line_items[0][price]': 'price_monthly',
      success_url: `${SITE}/dashboard?checkout=success`,
    });
  });

  it('sends a member whose customer already has a live subscription to the portal, not to a second checkout', async () => {
    const member = await createUser(t);
    const first = await post(member.token, '/checkout', {});
    // Paid on Stripe's page, but Stripe's event has not arrived yet: the site still says free.
    stripe.pay(String(first.json().url).split('/').pop()!);
    expect((await stored(member.user._id)).membershipTier).toBe('free');
    const again = await post(member.token, '/checkout', { returnPath: '/account' });
    expect(again.statusCode).toBe(200);
    expect(again.json().url).toMatch(new RegExp(`^${stripe.url}/portal/`));
    expect(callsTo('/v1/checkout/sessions')).toHaveLength(1);
    expect(callsTo('/v1/subscriptions')[0]?.body).toMatchObject({ status: 'all' });
  });

  it('lets a member upgrade after renaming themselves, though their first try made a customer it could not keep', async () => {
    const member = await createUser(t, { name: 'Ada Byron' });
    const price = stripe.prices.get('price_monthly')!;
    stripe.prices.delete('price_monthly');
    try {
      // Stripe makes the customer, then refuses the checkout: the customer is not recorded.
      expect((await post(member.token, '/checkout', {})).statusCode).toBe(503);
    } finally {
      stripe.prices.set('price_monthly', price);
    }
    await t.store.collection<UserDoc>('users').updateById(member.user._id, { name: 'Ada Lovelace' });
    const again = await post(member.token, '/checkout', {});
    expect(again.statusCode, again.body).toBe(200);
    expect(callsTo('/v1/customers').at(-1)?.body).toMatchObject({ name: 'Ada Lovelace' });
  });

  it('refuses a return address outside the site, a price not offered, and a member who is already paid', async () => {
    const member = await createUser(t);
    for (const returnPath of ['https://evil.example/phish', '//evil.example', '/admin/dashboard'])
      expect((await post(member.token, '/checkout', { returnPath })).statusCode, returnPath).toBe(400);
    expect((await post(member.token, '/checkout', { priceId: 'price_secret_discount' })).statusCode).toBe(
      400,
    );
    const paid = await createUser(t, { membershipTier: 'paid' });
    const refused = await post(paid.token, '/checkout');
    expect(refused.statusCode).toBe(409);
    expect(stripe.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('needs a signed-in member', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/payments/checkout', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/payments/portal', () => {
  it('opens Stripe’s Customer Portal for the member’s own customer, back to /account', async () => {
    const member = await createUser(t);
    expect((await post(member.token, '/portal')).statusCode).toBe(404);
    await post(member.token, '/checkout');
    const response = await post(member.token, '/portal');
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toMatch(new RegExp(`^${stripe.url}/portal/bps_`));
    const [portal] = callsTo('/v1/billing_portal/sessions');
    expect(portal?.body).toEqual({
      customer: (await stored(member.user._id)).billing?.customerId,
      return_url: `${SITE}/account`,
    });
  });
});

describe('GET /api/payments/me', () => {
  it('answers the member’s own tier, plan, status and the date of the next payment', async () => {
    const member = await createUser(t);
    const free = (
      await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: bearer(member.token) })
    ).json();
    expect(free.data).toMatchObject({
      tier: 'free',
      available: true,
      subscription: null,
      canManageBilling: false,
    });

    const periodEnd = Math.floor(Date.now() / 1000) + 20 * 86_400;
    const subscription = stripeSubscription({
      customer: 'cus_x',
      status: 'active',
      userId: member.user._id,
      priceId: 'price_yearly',
      periodEnd,
      cancelAtPeriodEnd: true,
    });
    await t.store.collection<UserDoc>('users').updateById(member.user._id, {
      membershipTier: 'paid',
      tierSource: 'stripe',
      billing: {
        customerId: 'cus_x',
        subscriptionId: subscription.id,
        status: 'active',
        priceId: 'price_yearly',
        currentPeriodEnd: new Date(periodEnd * 1000),
        cancelAtPeriodEnd: true,
      },
    });
    const paid = (
      await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: bearer(member.token) })
    ).json();
    expect(paid.data).toMatchObject({
      tier: 'paid',
      available: false,
      tierSource: 'stripe',
      canManageBilling: true,
      subscription: {
        status: 'active',
        plan: { id: 'price_yearly', amount: 12000, interval: 'year' },
        currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
        cancelAtPeriodEnd: true,
      },
    });
  });
});

describe('without Stripe set up', () => {
  it('offers no upgrade and refuses a checkout plainly', async () => {
    const bare = await createTestApp();
    try {
      const plans = await bare.app.inject({ method: 'GET', url: '/api/payments/plans' });
      expect(plans.json()).toEqual({ success: true, available: false, plans: [] });
      const member = await createUser(bare);
      const checkout = await bare.app.inject({
        method: 'POST',
        url: '/api/payments/checkout',
        headers: bearer(member.token),
        payload: {},
      });
      expect(checkout.statusCode).toBe(503);
      expect(checkout.json().message).toMatch(/not available/);
    } finally {
      await bare.close();
    }
  });
});

describe('User Management and the tier', () => {
  it('records a tier given by hand as complimentary, with paidSince and an Activity entry, and filters on billing', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const member = await createUser(t, { email: 'gift@example.com' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: await confirmed(t, admin.token),
      payload: { membershipTier: 'paid' },
    });
    expect(edit.json().data).toMatchObject({ membershipTier: 'paid', tierSource: 'complimentary' });
    expect(edit.json().data.paidSince).toBeTruthy();
    const activity = await t.app.inject({
      method: 'GET',
      url: '/api/admin/activity?kind=membership.tier',
      headers: bearer(admin.token),
    });
    expect(activity.json().data[0]).toMatchObject({
      actorEmail: admin.user.email,
      summary: 'gift@example.com made paid by hand (complimentary)',
    });

    const subscriber = await createUser(t, { email: 'payer@example.com' });
    await t.store.collection<UserDoc>('users').updateById(subscriber.user._id, {
      membershipTier: 'paid',
      tierSource: 'stripe',
      billing: { customerId: 'cus_1', subscriptionId: 'sub_1', status: 'past_due' },
    });
    const list = async (query: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/users?${query}`, headers: bearer(admin.token) }))
        .json()
        .data.map((user: { email: string }) => user.email);
    expect(await list('billing=paying')).toEqual(['payer@example.com']);
    expect(await list('billing=past_due&search=payer')).toEqual(['payer@example.com']);
    expect(await list('billing=complimentary')).toEqual(['gift@example.com']);
    const row = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/users?billing=paying',
        headers: bearer(admin.token),
      })
    ).json().data[0];
    expect(row.billing).toMatchObject({ customerId: 'cus_1', subscriptionId: 'sub_1', status: 'past_due' });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/users?billing=nonsense',
          headers: bearer(admin.token),
        })
      ).statusCode,
    ).toBe(400);

    // Editing a Stripe member's name (the row sends every field, the tier too) leaves why they are paid alone.
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${subscriber.user._id}`,
      headers: await confirmed(t, admin.token),
      payload: { name: 'Payer Renamed', membershipTier: 'paid' },
    });
    const renamed = await stored(subscriber.user._id);
    expect(renamed).toMatchObject({ name: 'Payer Renamed', membershipTier: 'paid', tierSource: 'stripe' });
    const entries = await t.app.inject({
      method: 'GET',
      url: '/api/admin/activity?kind=membership.tier',
      headers: bearer(admin.token),
    });
    expect(entries.json().total).toBe(1);
  });
});
