import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore as openChosenStore } from '../../store/open-store';
import type { Store } from '../../store/store';
import { adminApi } from '../../test/courses-kit';
import { ferretDbForFile } from '../../test/ferretdb';
import {
  chargeRefunded,
  courseCheckoutCompleted,
  type StripeEventFixture,
  signed,
  TEST_WEBHOOK_SECRET,
} from '../../test/stripe-events';
import { type StripeStandIn, startStripeStandIn, stripePrice } from '../../test/stripe-stand-in';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { ActivityDoc } from '../activity/activity.repository';
import type { UserDoc } from '../users/users.repository';

/** Selling one course on its own, on both stores: the price, Buy, Stripe's word, the refund. */
let stripe: StripeStandIn;
const ferret = ferretDbForFile();
let t: TestApp;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly'));
  stripe.prices.set('price_course', stripePrice('price_course', { amount: 4900, interval: null }));
  stripe.prices.set('price_free', stripePrice('price_free', { amount: 0, interval: null }));
});
afterAll(() => stripe.close());
afterEach(() => t.close());

const STORES: Array<{ name: string; openStore?: (dataDir: string) => Promise<Store> }> = [
  { name: 'embedded store', openStore: undefined },
];
if (ferret)
  STORES.push({
    name: 'MongoDB (FerretDB)',
    openStore: (dataDir) => openChosenStore({ mongodbUri: ferret.freshUri('purchases'), dataDir }),
  });

const deliver = (event: StripeEventFixture) => {
  const { payload, header } = signed(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
};
const get = (token: string | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const stored = async (id: string) => (await t.store.collection<UserDoc>('users').findById(id))!;
const activity = (kind: string) => t.store.collection<ActivityDoc>('activity').find({ kind });

/** A published paid course of one lesson, sold on its own at `price_course`. */
async function soldCourse() {
  const admin = await createUser(t, { role: 'admin' });
  const call = adminApi(t, admin.token);
  let course = await call<{ id: string; slug: string; title: string; sections: Array<{ id: string }> }>(
    'POST',
    '/api/admin/courses',
    { title: `Drawing rooms ${Math.random().toString(36).slice(2, 7)}` },
  );
  course = await call('POST', `/api/admin/courses/${course.id}/sections`, { title: 'Week 1' });
  const { lesson } = await call<{ lesson: { id: string } }>(
    'POST',
    `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
    { title: 'First drawing' },
  );
  await call('PUT', `/api/admin/courses/${course.id}/lessons/${lesson.id}`, { markdown: 'SECRET room' });
  await call('PUT', `/api/admin/courses/${course.id}`, { access: 'paid', published: true });
  const setPrice = (priceId: string | null) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/admin/payments/course-prices/${course.id}`,
      headers: bearer(admin.token),
      payload: { priceId },
    });
  expect((await setPrice('price_course')).statusCode).toBe(200);
  return { admin, course, lessonId: lesson.id, setPrice };
}

/** A member buys the course: Checkout opened by the site, paid on Stripe's page. */
async function buy(courseId: string, slug: string, token: string) {
  const opened = await t.app.inject({
    method: 'POST',
    url: `/api/payments/courses/${courseId}/checkout`,
    headers: bearer(token),
    payload: { returnPath: `/courses/${slug}` },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  const sessionId = String(opened.json().url).split('/').pop()!;
  return { sessionId, ...stripe.payOnce(sessionId) };
}

describe.each(STORES)('A course sold on its own, on the $name', ({ openStore }) => {
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
    stripe.calls.length = 0;
  });

  it('is bought in payment mode, opens to the free member, shows on their home, and closes on a full refund', async () => {
    const { course, lessonId } = await soldCourse();
    const offer = await get(null, `/api/payments/courses/${course.id}`);
    expect(offer.json().data).toMatchObject({
      available: true,
      price: { amount: 4900, currency: 'gbp', interval: null },
    });
    const member = await createUser(t);
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toMatchObject({
      reason: 'upgrade',
    });

    const { sessionId, session, paymentIntent, charge } = await buy(course.id, course.slug, member.token);
    const asked = stripe.calls.filter((call) => call.path === '/v1/checkout/sessions').at(-1)!.body;
    expect(asked).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': 'price_course',
      'metadata[courseId]': course.id,
      'payment_intent_data[metadata][courseId]': course.id,
      client_reference_id: member.user._id,
    });
    expect(asked.success_url).toMatch(new RegExp(`/courses/${course.slug}\\?checkout=bought$`));

    const completed = courseCheckoutCompleted({
      userId: member.user._id,
      customer: String(session.customer),
      sessionId,
      paymentIntent: paymentIntent.id,
      courseId: course.id,
      priceId: 'price_course',
    });
    expect((await deliver(completed)).json()).toMatchObject({ handled: true });
    // Again (Stripe's retry): nothing more.
    expect((await deliver(completed)).json()).toMatchObject({ duplicate: true });

    const user = await stored(member.user._id);
    expect(user.membershipTier).toBe('free');
    expect(user.purchases).toHaveLength(1);
    expect(user.purchases![0]).toMatchObject({ courseId: course.id, amount: 4900, refundedAt: null });
    expect(user.purchases![0]!.boughtAt).toBeInstanceOf(Date);
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toBeNull();
    const lesson = await get(member.token, `/api/courses/${course.slug}/lessons/${lessonId}`);
    expect(lesson.json().data.html).toContain('SECRET room');
    expect((await get(member.token, '/api/payments/me')).json().data.boughtCourseIds).toEqual([course.id]);
    const home = (await get(member.token, '/api/courses/home')).json().data;
    expect(home.courses.map((card: { id: string }) => card.id)).toContain(course.id);
    // "Download my data" holds it, without Stripe's ids.
    const exported = (await get(member.token, '/api/account/export')).json().user;
    expect(exported.purchases).toEqual([
      expect.objectContaining({
        courseId: course.id,
        courseTitle: course.title,
        amount: 4900,
        refundedAt: null,
      }),
    ]);
    expect(JSON.stringify(exported.purchases)).not.toContain(paymentIntent.id);
    const [bought] = await activity('payments.course-bought');
    expect(bought?.summary).toMatch(new RegExp(`${user.email} bought “${course.title}” \\(£49.00\\)`));

    // Bought already: no second checkout.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/courses/${course.id}/checkout`,
      headers: bearer(member.token),
      payload: { returnPath: `/courses/${course.slug}` },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already own this course/);

    // A partial refund leaves it open; a full one closes it again.
    await deliver(chargeRefunded(stripe.refund(paymentIntent.id, 1000)));
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toBeNull();
    await deliver(chargeRefunded(stripe.refund(paymentIntent.id)));
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toMatchObject({
      reason: 'upgrade',
    });
    expect((await stored(member.user._id)).purchases![0]!.refundedAt).toBeInstanceOf(Date);
    expect((await activity('payments.course-refunded'))[0]?.summary).toMatch(/closed to them again/);
    expect(charge.id).toMatch(/^ch_/);
  });

  it('a refund arriving before the checkout’s event: the course is recorded as bought, and stays closed', async () => {
    const { course } = await soldCourse();
    const member = await createUser(t);
    const { sessionId, session, paymentIntent } = await buy(course.id, course.slug, member.token);
    const refund = chargeRefunded(stripe.refund(paymentIntent.id));
    expect((await deliver(refund)).json()).toMatchObject({ ignored: expect.any(String) });
    await deliver(
      courseCheckoutCompleted({
        userId: member.user._id,
        customer: String(session.customer),
        sessionId,
        paymentIntent: paymentIntent.id,
        courseId: course.id,
        priceId: 'price_course',
      }),
    );
    expect((await stored(member.user._id)).purchases![0]!.refundedAt).toBeInstanceOf(Date);
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toMatchObject({
      reason: 'upgrade',
    });
  });

  it('trusts no checkout the site did not open, whatever its metadata says', async () => {
    const { course } = await soldCourse();
    const member = await createUser(t);
    const { session, paymentIntent } = await buy(course.id, course.slug, member.token);
    const forged = courseCheckoutCompleted({
      userId: member.user._id,
      customer: String(session.customer),
      paymentIntent: paymentIntent.id,
      courseId: course.id,
      priceId: 'price_course',
    });
    expect((await deliver(forged)).json()).toMatchObject({ ignored: 'not a checkout the site opened' });
    expect((await stored(member.user._id)).purchases).toBeUndefined();
  });
});

describe('The owner sets a course’s price', () => {
  beforeEach(async () => {
    t = await createTestApp({
      STRIPE_SECRET_KEY: stripe.apiKey,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    });
  });

  it('refuses a recurring price, one of 0, and one Stripe does not have; nothing changes', async () => {
    const { course, setPrice } = await soldCourse();
    const file = path.join(t.dataDir, 'payments.json');
    const before = await readFile(file, 'utf8');
    for (const [priceId, message] of [
      ['price_monthly', /recurs: a course is bought once/],
      ['price_free', /must be more than 0/],
      ['price_nowhere', /Stripe has no price price_nowhere/],
    ] as const) {
      const refused = await setPrice(priceId);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(message);
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(JSON.parse(before).coursePrices).toEqual({ [course.id]: 'price_course' });
    const [entry] = await activity('payments.course-price');
    expect(entry?.summary).toMatch(/sold on its own at Stripe price price_course/);
    expect((await setPrice(null)).json().data.coursePrices).toEqual({});
  });

  it('a course paid by a slower method opens with Stripe’s async_payment_succeeded, not before', async () => {
    const { course } = await soldCourse();
    const member = await createUser(t);
    const { sessionId, session, paymentIntent } = await buy(course.id, course.slug, member.token);
    const completed = courseCheckoutCompleted({
      userId: member.user._id,
      customer: String(session.customer),
      sessionId,
      paymentIntent: paymentIntent.id,
      courseId: course.id,
      priceId: 'price_course',
    });
    // A bank debit: the checkout completes unpaid, and nothing opens.
    const unpaid = { ...completed, data: { object: { ...completed.data.object, payment_status: 'unpaid' } } };
    expect((await deliver(unpaid)).json()).toMatchObject({ ignored: expect.any(String) });
    expect((await stored(member.user._id)).purchases).toBeUndefined();
    const paid = {
      ...completed,
      id: `${completed.id}_later`,
      type: 'checkout.session.async_payment_succeeded',
    };
    expect((await deliver(paid)).json()).toMatchObject({ handled: true });
    expect((await get(member.token, `/api/courses/${course.slug}`)).json().data.lock).toBeNull();
  });

  it('a paid member has nothing to buy', async () => {
    const { course } = await soldCourse();
    const paid = await createUser(t, { membershipTier: 'paid' });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/payments/courses/${course.id}/checkout`,
      headers: bearer(paid.token),
      payload: { returnPath: `/courses/${course.slug}` },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/already open to you/);
  });
});

describe('A course’s own price on its public page', () => {
  let dist = '';
  beforeEach(async () => {
    // A built client of one page each, so that the course page's HTML (its data) is served.
    dist = await mkdtemp(path.join(tmpdir(), 'dist-'));
    await mkdir(path.join(dist, 'pages'));
    const page = '<!doctype html><html><head><title>built</title></head><body></body></html>';
    await writeFile(path.join(dist, 'index.html'), page);
    await writeFile(path.join(dist, 'pages', 'course.html'), page);
    t = await createTestApp({
      STRIPE_SECRET_KEY: stripe.apiKey,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      CLIENT_DIST_DIR: dist,
    });
  });
  afterEach(() => rm(dist, { recursive: true, force: true }));

  const pageData = async (slug: string) => {
    const html = (await get(null, `/courses/${slug}`)).body;
    const json = /<script type="application\/json" id="course-page-data">([^<]*)<\/script>/.exec(html)![1]!;
    return JSON.parse(json).course;
  };

  it('is in the course answer for a visitor and a free member at the paid lock: amount and currency, nothing else of billing', async () => {
    const { course, setPrice } = await soldCourse();
    const free = await createUser(t);
    const paid = await createUser(t, { membershipTier: 'paid' });
    const visitor = await get(null, `/api/courses/${course.slug}`);
    expect(visitor.json().data.lock).toMatchObject({ reason: 'upgrade' });
    expect(visitor.json().data.coursePrice).toEqual({ amount: 4900, currency: 'gbp' });
    // The Stripe price id, its name or product, the settings: none of it.
    expect(visitor.body).not.toMatch(/price_|prod_|Stripe|webhook/i);
    expect((await pageData(course.slug)).coursePrice).toEqual({ amount: 4900, currency: 'gbp' });
    expect((await get(free.token, `/api/courses/${course.slug}`)).json().data.coursePrice).toEqual({
      amount: 4900,
      currency: 'gbp',
    });
    // Open to a paid member: nothing to buy, no price.
    expect((await get(paid.token, `/api/courses/${course.slug}`)).json().data.coursePrice).toBeNull();

    // No longer sold on its own: gone from the answer and, at once, from the page a visitor loads.
    expect((await setPrice(null)).statusCode).toBe(200);
    expect((await get(null, `/api/courses/${course.slug}`)).json().data.coursePrice).toBeNull();
    expect((await pageData(course.slug)).coursePrice).toBeNull();
  });
});
