import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_BODY_LIMIT } from '../../http/body-limit';
import { openStore as openChosenStore } from '../../store/open-store';
import type { Store } from '../../store/store';
import { ferretDbForFile } from '../../test/ferretdb';
import {
  checkoutCompleted,
  invoiceEvent,
  type StripeEventFixture,
  signed,
  subscriptionEvent,
  TEST_WEBHOOK_SECRET,
} from '../../test/stripe-events';
import {
  type StripeStandIn,
  startStripeStandIn,
  stripePrice,
  stripeSubscription,
} from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, readOutbox, type TestApp } from '../../test/test-app';
import type { ActivityDoc } from '../activity/activity.repository';
import type { UserDoc } from '../users/users.repository';
import { WEBHOOK_BODY_LIMIT } from './payments.routes';

let stripe: StripeStandIn;
const ferret = ferretDbForFile();
let t: TestApp;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly'));
});
afterAll(async () => {
  await stripe.close();
});
afterEach(() => t.close());

/** Billing data and handled events on both stores: the embedded one, and MongoDB (on FerretDB). */
const STORES: Array<{ name: string; openStore?: (dataDir: string) => Promise<Store> }> = [
  { name: 'embedded store', openStore: undefined },
];
if (ferret) {
  STORES.push({
    name: 'MongoDB (FerretDB)',
    // Through the store chooser, as a start with MONGODB_URI does: no adapter file is named here.
    openStore: (dataDir) => openChosenStore({ mongodbUri: ferret.freshUri('payments'), dataDir }),
  });
}

const deliver = (event: StripeEventFixture, options: Parameters<typeof signed>[1] = {}) => {
  const { payload, header } = signed(event, options);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    payload,
  });
};
const stored = async (id: string) => (await t.store.collection<UserDoc>('users').findById(id))!;
const tierEntries = () => t.store.collection<ActivityDoc>('activity').find({ kind: 'membership.tier' });

/**
 * A free member who opened a checkout on the site (their Stripe customer and the session
 * recorded) and paid on Stripe's page: the subscription in the state Stripe holds now.
 */
async function subscriber(status = 'active') {
  const member = await createUser(t);
  const opened = await t.app.inject({
    method: 'POST',
    url: '/api/payments/checkout',
    headers: bearer(member.token),
    payload: {},
  });
  expect(opened.statusCode).toBe(200);
  const sessionId = String(opened.json().url).split('/').pop()!;
  const { session, subscription } = stripe.pay(sessionId, status);
  const customer = String(session.customer);
  return { member, customer, subscription, id: member.user._id, sessionId };
}
const setStatus = (subscription: Record<string, unknown>, status: string) =>
  Object.assign(subscription, {
    status,
    ended_at: status === 'canceled' ? Math.floor(Date.now() / 1000) : null,
  });

describe.each(STORES)('POST /api/payments/webhook on the $name', ({ openStore }) => {
  beforeEach(async () => {
    t = await createTestApp(
      {
        STRIPE_SECRET_KEY: stripe.apiKey,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        STRIPE_PRICE_IDS: 'price_monthly',
        STRIPE_API_BASE: stripe.url,
      },
      openStore ? { openStore } : {},
    );
  });

  it('moves a member to paid on a good signature, recording since when, why, and by which event', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    const response = await deliver(event);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ received: true, handled: true });

    const user = await stored(id);
    expect(user.membershipTier).toBe('paid');
    expect(user.tierSource).toBe('stripe');
    expect(user.paidSince).toBeInstanceOf(Date);
    expect(user.billing).toMatchObject({
      customerId: customer,
      subscriptionId: subscription.id,
      status: 'active',
    });
    expect(user.billing?.currentPeriodEnd?.getTime()).toBeGreaterThan(Date.now());
    const [entry] = await tierEntries();
    expect(entry).toMatchObject({ actorEmail: 'Stripe' });
    expect(entry?.summary).toContain(event.id);
    expect(entry?.summary).toContain('checkout.session.completed');
  });

  it('makes or keeps a member paid only through a checkout the site opened for them, at one of the site’s prices', async () => {
    stripe.prices.set('price_other_product', stripePrice('price_other_product', { amount: 500 }));
    const admin = await createUser(t, { role: 'admin' });
    const { id, customer, subscription, sessionId } = await subscriber();
    await deliver(checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId }));
    expect((await stored(id)).membershipTier).toBe('paid');

    // A stranger pays through one of the owner's payment links with the member's id in the
    // address (client_reference_id): their own customer, their own subscription.
    const strangers = stripeSubscription({ customer: 'cus_stranger', status: 'active' });
    stripe.subscriptions.set(strangers.id, strangers);
    const relink = await deliver(
      checkoutCompleted({ userId: id, customer: 'cus_stranger', subscription: strangers.id }),
    );
    expect(relink.json()).toMatchObject({ ignored: 'no member of this site' });
    // ...and cancels it: the member is untouched, still linked to the subscription they pay.
    setStatus(strangers, 'canceled');
    await deliver(subscriptionEvent('deleted', { ...strangers }));
    const member = await stored(id);
    expect(member.membershipTier).toBe('paid');
    expect(member.billing).toMatchObject({
      customerId: customer,
      subscriptionId: subscription.id,
      status: 'active',
    });

    // A free member buys another recurring product of the owner through a payment link naming them.
    const buyer = await createUser(t);
    const other = stripeSubscription({
      customer: 'cus_buyer',
      status: 'active',
      priceId: 'price_other_product',
    });
    stripe.subscriptions.set(other.id, other);
    await deliver(
      checkoutCompleted({ userId: buyer.user._id, customer: 'cus_buyer', subscription: other.id }),
    );
    await deliver(subscriptionEvent('created', { ...other }));
    expect((await stored(buyer.user._id)).membershipTier).toBe('free');

    // Even on the member's own customer (the one the site made), another product is not membership.
    const opener = await subscriber();
    const elsewhere = stripeSubscription({
      customer: opener.customer,
      status: 'active',
      priceId: 'price_other_product',
    });
    stripe.subscriptions.set(elsewhere.id, elsewhere);
    const foreign = await deliver(subscriptionEvent('created', { ...elsewhere }));
    expect(foreign.json()).toMatchObject({ ignored: expect.stringMatching(/price/) });
    expect((await stored(opener.id)).membershipTier).toBe('free');

    // Deleting the paying member's account cancels the subscription they really pay.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${id}`,
      headers: await confirmed(t, admin.token),
    });
    expect(deleted.statusCode).toBe(200);
    expect(stripe.subscriptions.get(subscription.id)?.status).toBe('canceled');
  });

  it('records a second subscription that slipped through, shows it to the owner, and cancels every one with the account', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const member = await createUser(t);
    // Two tabs: both checkouts open before either is paid, and both are paid.
    const open = async () => {
      const opened = await t.app.inject({
        method: 'POST',
        url: '/api/payments/checkout',
        headers: bearer(member.token),
        payload: {},
      });
      return String(opened.json().url).split('/').pop()!;
    };
    const [first, second] = [await open(), await open()];
    const one = stripe.pay(first);
    const two = stripe.pay(second);
    const customer = String(one.session.customer);
    const id = member.user._id;
    await deliver(
      checkoutCompleted({ userId: id, customer, subscription: one.subscription.id, sessionId: first }),
    );
    await deliver(
      checkoutCompleted({ userId: id, customer, subscription: two.subscription.id, sessionId: second }),
    );
    const user = await stored(id);
    expect(user.membershipTier).toBe('paid');
    expect(user.billing?.subscriptionId).toBe(one.subscription.id);
    expect(user.billing?.otherSubscriptionIds).toEqual([two.subscription.id]);

    // The owner sees it on the console's Dashboard.
    const overview = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payments/overview',
      headers: bearer(admin.token),
    });
    expect(overview.json().data.subscribedTwice).toEqual([
      { _id: id, name: member.user.name, email: member.user.email, customerId: customer, subscriptions: 2 },
    ]);

    // A third one whose event never arrived (a wrong signing secret, say) is found at Stripe too:
    // deleting the account cancels every live subscription of the member's customer.
    const unheard = stripeSubscription({ customer, status: 'active' });
    stripe.subscriptions.set(unheard.id, unheard);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${id}`,
      headers: await confirmed(t, admin.token),
    });
    expect(deleted.statusCode).toBe(200);
    for (const subscription of [one.subscription, two.subscription, unheard])
      expect(stripe.subscriptions.get(subscription.id)?.status).toBe('canceled');
  });

  it('keeps a member paid on their second subscription when the first one ends', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    await deliver(checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId }));
    const extra = stripeSubscription({ customer, status: 'active' });
    stripe.subscriptions.set(extra.id, extra);
    await deliver(subscriptionEvent('created', { ...extra }));
    setStatus(subscription, 'canceled');
    await deliver(subscriptionEvent('deleted', { ...subscription }));
    const user = await stored(id);
    expect(user.membershipTier).toBe('paid');
    expect(user.billing).toMatchObject({ subscriptionId: extra.id, status: 'active' });
    expect(user.billing?.otherSubscriptionIds).toBeUndefined();
  });

  it('answers 503 while Stripe cannot be asked, and the console shows the payments received but not applied until they are', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const overview = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/payments/overview',
          headers: bearer(admin.token),
        })
      ).json().data.notApplied;
    const { id, customer, subscription, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    stripe.outage = true;
    try {
      expect((await deliver(event)).statusCode).toBe(503);
    } finally {
      stripe.outage = false;
    }
    expect((await stored(id)).membershipTier).toBe('free');
    expect(await overview()).toMatchObject({
      count: 1,
      reason: expect.stringMatching(/Stripe is busy or having trouble/),
    });
    // Stripe's retry is applied, and the notice clears.
    expect((await deliver(event)).json()).toMatchObject({ handled: true });
    expect((await stored(id)).membershipTier).toBe('paid');
    expect(await overview()).toMatchObject({ count: 0, reason: null });
  });

  it('sends no payment-failed mail when the subscription is active again by the time the event arrives', async () => {
    await createUser(t, { role: 'admin', email: 'owner@example.com' });
    const { id, customer, subscription, sessionId } = await subscriber();
    await deliver(checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId }));
    // The card was updated and Stripe's retry went through before the failure's event arrived.
    const late = await deliver(
      invoiceEvent('invoice.payment_failed', { customer, subscription: subscription.id }),
    );
    expect(late.statusCode).toBe(200);
    expect((await stored(id)).billing?.status).toBe('active');
    // A failure that still stands is mailed: it is the only mail.
    setStatus(subscription, 'past_due');
    await deliver(invoiceEvent('invoice.payment_failed', { customer, subscription: subscription.id }));
    await readOutbox(t.dataDir);
    // Time for the queue to write a second mail, had there been one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await readOutbox(t.dataDir)).toHaveLength(1);
  });

  it('refuses a bad signature and a signature older than five minutes, changing nothing', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    const forged = await deliver(event, { secret: 'whsec_someone_else_entirely_000' });
    expect(forged.statusCode).toBe(400);
    const stale = await deliver(event, { secondsAgo: 301 });
    expect(stale.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await stored(id)).membershipTier).toBe('free');
    expect(await t.store.collection('payment_events').count()).toBe(0);
    // The same event, properly signed, is then handled: the refusals did not mark it as seen.
    expect((await deliver(event)).json()).toMatchObject({ handled: true });
  });

  it('acknowledges a replayed event and changes nothing', async () => {
    const { id, customer, subscription, member, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    await deliver(event);
    expect((await stored(id)).membershipTier).toBe('paid');
    // The owner makes them free by hand (past the warning that Stripe manages the tier); the
    // same event again must not make them paid.
    const admin = await createUser(t, { role: 'admin' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: await confirmed(t, admin.token),
      payload: { membershipTier: 'free', confirmManagedByStripe: true },
    });
    expect(edit.statusCode).toBe(200);
    const replay = await deliver(event);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ received: true, duplicate: true });
    expect((await stored(id)).membershipTier).toBe('free');
  });

  it('ends in the right tier when events come out of order: Stripe’s current state decides', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    const created = subscriptionEvent('created', { ...subscription });
    const checkout = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    // By the time anything arrives, the member has already cancelled: the deletion comes first.
    setStatus(subscription, 'canceled');
    const deleted = subscriptionEvent('deleted', { ...subscription });
    await deliver(deleted);
    await deliver(checkout);
    await deliver(created);
    const user = await stored(id);
    expect(user.membershipTier).toBe('free');
    expect(user.billing?.status).toBe('canceled');
    expect(await tierEntries()).toHaveLength(0);
  });

  it('keeps access while a payment is retried (past due) and tells the owner by mail', async () => {
    await createUser(t, { role: 'admin', email: 'owner@example.com' });
    const { id, customer, subscription, member, sessionId } = await subscriber();
    await deliver(checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId }));
    setStatus(subscription, 'past_due');
    const failed = await deliver(
      invoiceEvent('invoice.payment_failed', { customer, subscription: subscription.id }),
    );
    expect(failed.statusCode).toBe(200);
    const user = await stored(id);
    expect(user.membershipTier).toBe('paid');
    expect(user.billing?.status).toBe('past_due');
    expect(user.billing?.paymentFailedAt).toBeInstanceOf(Date);
    const [mail] = await readOutbox(t.dataDir);
    expect(mail?.to).toBe('owner@example.com');
    expect(mail?.subject).toMatch(/payment failed/);
    expect(mail?.text).toContain(member.user.email);
    expect(mail?.text).toMatch(/will try again on/);

    // The card is updated and the invoice paid: the failure is cleared.
    setStatus(subscription, 'active');
    await deliver(invoiceEvent('invoice.paid', { customer, subscription: subscription.id }));
    expect((await stored(id)).billing).toMatchObject({ status: 'active', paymentFailedAt: null });
  });

  it('ends access when the subscription is deleted, unpaid or expired', async () => {
    for (const status of ['canceled', 'unpaid', 'incomplete_expired']) {
      const { id, customer, subscription, sessionId } = await subscriber();
      await deliver(checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId }));
      expect((await stored(id)).membershipTier).toBe('paid');
      setStatus(subscription, status);
      await deliver(subscriptionEvent(status === 'canceled' ? 'deleted' : 'updated', { ...subscription }));
      const user = await stored(id);
      expect(user.membershipTier, status).toBe('free');
      expect(user.paidSince, status).toBeUndefined();
    }
  });

  it('leaves a paid tier given by hand (complimentary) when a subscription ends', async () => {
    const { id, customer, subscription, member } = await subscriber();
    const admin = await createUser(t, { role: 'admin' });
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: await confirmed(t, admin.token),
      payload: { membershipTier: 'paid' },
    });
    expect((await stored(id)).tierSource).toBe('complimentary');
    setStatus(subscription, 'canceled');
    await deliver(subscriptionEvent('deleted', { ...subscription }));
    const user = await stored(id);
    expect(user.membershipTier).toBe('paid');
    expect(user.billing).toMatchObject({ customerId: customer, status: 'canceled' });
  });

  it('handles the same event delivered to several processes at once exactly once', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(event)));
    const handled = answers.filter((answer) => answer.statusCode === 200 && answer.json().handled);
    expect(handled).toHaveLength(1);
    // The others were acknowledged as already handled, or asked to come again later (409).
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    expect(await tierEntries()).toHaveLength(1);
    expect((await stored(id)).membershipTier).toBe('paid');
  });

  it('takes events of a few hundred KB, far above the strangers’ limit, and refuses more than its own', async () => {
    const { id, customer, subscription, sessionId } = await subscriber();
    const event = checkoutCompleted({ userId: id, customer, subscription: subscription.id, sessionId });
    (event.data.object as Record<string, unknown>).padding = 'x'.repeat(300 * 1024);
    expect(300 * 1024).toBeGreaterThan(PUBLIC_BODY_LIMIT);
    const big = await deliver(event);
    expect(big.statusCode).toBe(200);
    (event.data.object as Record<string, unknown>).padding = 'x'.repeat(WEBHOOK_BODY_LIMIT);
    expect((await deliver(event)).statusCode).toBe(413);
    // The strangers' limit still holds everywhere else.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(300 * 1024) }),
    });
    expect(login.statusCode).toBe(413);
  });

  it('acknowledges events about nobody of this site and events it does not act on', async () => {
    const stranger = stripeSubscription({ customer: 'cus_unknown', status: 'active' });
    stripe.subscriptions.set(stranger.id, stranger);
    const unknown = await deliver(subscriptionEvent('updated', stranger));
    expect(unknown.json()).toMatchObject({ received: true, ignored: 'no member of this site' });
    const other = await deliver(
      invoiceEvent('invoice.paid', { customer: 'cus_unknown', subscription: 'sub_missing' }),
    );
    expect(other.statusCode).toBe(200);
  });
});

describe('POST /api/payments/webhook without Stripe set up', () => {
  it('answers 503, so that Stripe sends the event again once the owner has finished', async () => {
    const bare = await createTestApp();
    t = bare;
    {
      const { payload, header } = signed(
        checkoutCompleted({ userId: 'x', customer: 'c', subscription: 's' }),
      );
      const response = await bare.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        payload,
      });
      expect(response.statusCode).toBe(503);
    }
  });
});
