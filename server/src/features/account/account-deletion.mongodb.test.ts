import type { AdminCourse, AdminCourseRow, AdminLesson } from '@common/schemas/course-views';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store';
import { bothStores } from '../../test/both-stores';
import { adminApi } from '../../test/courses-kit';
import { TEST_WEBHOOK_SECRET } from '../../test/stripe-events';
import {
  type StripeStandIn,
  startStripeStandIn,
  stripePrice,
  stripeSubscription,
} from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { ActivityDoc } from '../activity/activity.repository';
import type { ProgressDoc } from '../courses/progress/progress.repository';
import type { UserDoc } from '../users/users.repository';

/**
 * Deleting an account, by its member on /account or by an administrator in User Management,
 * leaves nobody paying for it (the Stripe subscription is cancelled first, or nothing is deleted)
 * and nothing of it in the courses (progress gone, each course's numbers still right).
 */
let stripe: StripeStandIn;
const { stores, closeStandIns } = bothStores('deletion');
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly'));
});
afterAll(async () => {
  await stripe.close();
  await closeStandIns();
});
afterEach(async () => {
  stripe.outage = false;
  stripe.calls.length = 0;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WITH_STRIPE = {
  PUBLIC_URL: 'https://members.example.com',
  STRIPE_SECRET_KEY: 'sk_test_standin0000000000000000',
  STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  STRIPE_PRICE_IDS: 'price_monthly',
};

async function site(openStore: (dataDir: string) => Promise<Store>, stripeSetUp = true) {
  const t = await createTestApp(
    stripeSetUp ? { ...WITH_STRIPE, STRIPE_API_BASE: stripe.url } : { PUBLIC_URL: WITH_STRIPE.PUBLIC_URL },
    { openStore },
  );
  cleanups.push(() => t.close());
  const admin = await createUser(t, { role: 'admin' });
  return { t, admin };
}

/** A member Stripe bills: a live subscription at Stripe, and the site's record of it. */
async function payingMember(t: TestApp, status = 'active') {
  const member = await createUser(t, { password: 'member-pass' });
  const customer = `cus_${member.user._id}`;
  const subscription = stripeSubscription({ customer, status, userId: member.user._id });
  stripe.subscriptions.set(subscription.id, subscription);
  await t.store.collection<UserDoc>('users').updateById(member.user._id, {
    membershipTier: 'paid',
    tierSource: 'stripe',
    billing: { customerId: customer, subscriptionId: subscription.id, status: 'active' },
  });
  return { ...member, subscription };
}

const deleteOwn = (t: TestApp, token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/delete',
    headers: bearer(token),
    payload: { password: 'member-pass', confirmation: 'DELETE' },
  });
const deleteInConsole = async (t: TestApp, adminToken: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}`, headers: await confirmed(t, adminToken) });
const stored = (t: TestApp, id: string) => t.store.collection<UserDoc>('users').findById(id);
const cancels = () => stripe.calls.filter((call) => call.method === 'DELETE');

const WAYS = [
  [
    'by the member on /account',
    (t: TestApp, _admin: string, member: { token: string }) => deleteOwn(t, member.token),
  ],
  [
    'by an administrator in User Management',
    (t: TestApp, admin: string, member: { user: UserDoc }) => deleteInConsole(t, admin, member.user._id),
  ],
] as const;

describe.each(stores)('deleting an account on the %s', (_store, openStore) => {
  describe.each(WAYS)('%s', (_way, remove) => {
    it('cancels the Stripe subscription at once, then deletes the account', async () => {
      const { t, admin } = await site(openStore);
      const member = await payingMember(t);
      const done = await remove(t, admin.token, member);
      expect(done.statusCode, done.body).toBe(200);
      expect(cancels()).toEqual([
        expect.objectContaining({
          path: `/v1/subscriptions/${member.subscription.id}`,
          // No final invoice and no proration: nothing more is charged.
          body: expect.objectContaining({ invoice_now: 'false', prorate: 'false' }),
        }),
      ]);
      expect(stripe.subscriptions.get(member.subscription.id)?.status).toBe('canceled');
      expect(await stored(t, member.user._id)).toBeNull();
      const [entry] = await t.store
        .collection<ActivityDoc>('activity')
        .find({ kind: { $in: ['account.deleted', 'user.deleted'] } });
      expect(entry?.summary).toMatch(/\(their Stripe subscription was cancelled\)$/);
    });

    it('deletes nothing when Stripe cannot cancel the subscription, and says why', async () => {
      const { t, admin } = await site(openStore);
      const member = await payingMember(t);
      stripe.outage = true;
      const refused = await remove(t, admin.token, member);
      expect(refused.statusCode).toBe(424);
      expect(refused.json()).toMatchObject({
        code: 'SUBSCRIPTION_NOT_CANCELLED',
        message: expect.stringMatching(/could not be cancelled .*not deleted and nothing changed/),
      });
      expect(stripe.calls.length).toBeGreaterThan(0);
      expect(await stored(t, member.user._id)).toMatchObject({ membershipTier: 'paid' });
      // Still signed in: the member can try again, or open Manage billing.
      const account = await t.app.inject({ url: '/api/account', headers: bearer(member.token) });
      expect(account.statusCode).toBe(200);

      stripe.outage = false;
      expect((await remove(t, admin.token, member)).statusCode).toBe(200);
      expect(await stored(t, member.user._id)).toBeNull();
    });

    it('asks nothing of Stripe for a member it does not bill, and cancels nothing for an ended subscription', async () => {
      const { t, admin } = await site(openStore);
      const free = await createUser(t, { password: 'member-pass' });
      expect((await remove(t, admin.token, free)).statusCode).toBe(200);
      const ended = await payingMember(t);
      await t.store.collection<UserDoc>('users').updateById(ended.user._id, {
        membershipTier: 'free',
        billing: { customerId: 'cus_ended', subscriptionId: ended.subscription.id, status: 'canceled' },
      });
      expect(stripe.calls).toEqual([]);
      expect((await remove(t, admin.token, ended)).statusCode).toBe(200);
      // Its customer is asked for live subscriptions (one the site never heard of); none, none cancelled.
      expect(stripe.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /v1/subscriptions']);
    });
  });

  it('goes ahead when Stripe says the subscription already ended (cancelled in its dashboard)', async () => {
    const { t, admin } = await site(openStore);
    const member = await payingMember(t);
    member.subscription.status = 'canceled';
    expect((await deleteInConsole(t, admin.token, member.user._id)).statusCode).toBe(200);
    expect(await stored(t, member.user._id)).toBeNull();
  });

  it('refuses while Stripe is no longer set up on the site: it could not cancel the subscription', async () => {
    const { t, admin } = await site(openStore, false);
    const member = await payingMember(t);
    const refused = await deleteInConsole(t, admin.token, member.user._id);
    expect(refused.json()).toMatchObject({
      code: 'SUBSCRIPTION_NOT_CANCELLED',
      message: expect.stringContaining('Stripe is not set up on this site any more'),
    });
    expect(await stored(t, member.user._id)).not.toBeNull();
  });

  it("removes the account's course progress, and each course's numbers stay right", async () => {
    const { t, admin } = await site(openStore, false);
    const call = adminApi(t, admin.token);
    let course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Foundations' });
    course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, { title: 'One' });
    const lessonIds: string[] = [];
    for (const title of ['First', 'Second']) {
      const { lesson } = await call<{ lesson: AdminLesson }>(
        'POST',
        `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
        { title },
      );
      lessonIds.push(lesson.id);
    }
    await call('PUT', `/api/admin/courses/${course.id}`, { access: 'members', published: true });
    const complete = (token: string, lessonId: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/courses/lessons/${lessonId}/complete`,
        headers: bearer(token),
      });
    // Ada finishes the course, Bob starts it, Cy starts it.
    const [ada, bob, cy] = await Promise.all([1, 2, 3].map(() => createUser(t, { password: 'member-pass' })));
    for (const lessonId of lessonIds) expect((await complete(ada!.token, lessonId)).statusCode).toBe(200);
    await complete(bob!.token, lessonIds[0]!);
    await complete(cy!.token, lessonIds[0]!);
    const numbers = async () => {
      const rows = await call<AdminCourseRow[]>('GET', '/api/admin/courses');
      const row = rows.find((r) => r.id === course.id)!;
      return { started: row.started, completed: row.completed, completionRate: row.completionRate };
    };
    expect(await numbers()).toEqual({ started: 3, completed: 1, completionRate: 1 / 3 });

    expect((await deleteOwn(t, ada!.token)).statusCode).toBe(200);
    expect(await numbers()).toEqual({ started: 2, completed: 0, completionRate: 0 });
    expect((await deleteInConsole(t, admin.token, bob!.user._id)).statusCode).toBe(200);
    expect(await numbers()).toEqual({ started: 1, completed: 0, completionRate: 0 });
    const left = await t.store.collection<ProgressDoc>('course_progress').find({});
    expect(left.map((doc) => doc.userId)).toEqual([cy!.user._id]);
  });
});
