import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import {
  checkoutCompleted,
  courseCheckoutCompleted,
  type StripeEventFixture,
  signed,
  TEST_WEBHOOK_SECRET,
} from '../server/src/test/stripe-events';
import { stripePrice } from '../server/src/test/stripe-stand-in';
import { expectNoSeriousViolations } from './support/axe';
import { settle } from './support/courses';
import { E2E_BASE_URL, e2eStripeUrl } from './support/env';
import { adminToken, apiAs, openSignedIn, registerMember, tokenFor } from './support/session';

/**
 * More ways to sell, with the Stripe stand-in (global-setup): a course bought on its own, the
 * owner's price list, promotion codes and a free trial. The test delivers Stripe's signed events.
 */
const STRIPE = e2eStripeUrl();
const MONTHLY = 'price_e2e_sell_monthly';
const COURSE_PRICE = 'price_e2e_sell_course';
const RETIRED = 'price_e2e_retired';
const STAND_IN_KEY = 'sk_test_standin0000000000000000';
const SHOTS = process.env.SHOTS_DIR;
const run = Date.now().toString(36);
const COURSE = { title: `Drawing Rooms ${run}`, slug: `drawing-rooms-${run}` };
const LESSON = { title: 'The plan view', text: 'Draw your room from above, to scale.' };
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
let courseId = '';

test.skip(!STRIPE, 'needs the Stripe stand-in started by global-setup');
test.use({ bypassCSP: true });

const standIn = (path: string, body: unknown) =>
  fetch(`${STRIPE}/_stand-in/${path}`, { method: 'POST', body: JSON.stringify(body) });

test.beforeAll(async () => {
  const admin = await adminToken();
  await standIn('prices', stripePrice(MONTHLY, { amount: 1200, interval: 'month', nickname: 'Monthly' }));
  await standIn('prices', stripePrice(RETIRED, { amount: 1000, active: false }));
  await standIn(
    'prices',
    stripePrice(COURSE_PRICE, { amount: 4900, interval: null, product: 'Drawing Rooms course' }),
  );
  await standIn('promotion-codes', { code: 'SPRING', percentOff: 20, months: 3 });
  await apiAs(admin, 'POST', '/api/admin/payments/settings', {
    secretKey: STAND_IN_KEY,
    webhookSecret: TEST_WEBHOOK_SECRET,
    priceIds: [MONTHLY],
    promotionCodes: true,
    trialDays: 14,
    trialWithoutCard: true,
  });
  type Course = { data: { id: string; sections: Array<{ id: string }> } };
  const { data: created } = await apiAs<Course>(admin, 'POST', '/api/admin/courses', { title: COURSE.title });
  courseId = created.id;
  const { data: course } = await apiAs<Course>(admin, 'POST', `/api/admin/courses/${courseId}/sections`, {
    title: 'Week 1',
  });
  const { data: added } = await apiAs<{ data: { lesson: { id: string } } }>(
    admin,
    'POST',
    `/api/admin/courses/${courseId}/sections/${course.sections[0]!.id}/lessons`,
    { title: LESSON.title },
  );
  await apiAs(admin, 'PUT', `/api/admin/courses/${courseId}/lessons/${added.lesson.id}`, {
    markdown: LESSON.text,
  });
  await apiAs(admin, 'PUT', `/api/admin/courses/${courseId}`, { access: 'paid', published: true });
  await apiAs(admin, 'PUT', `/api/admin/payments/course-prices/${courseId}`, { priceId: COURSE_PRICE });
});

// The other specs run without Stripe, as a site does until its owner connects it.
test.afterAll(async () => {
  const admin = await adminToken();
  await apiAs(admin, 'PUT', `/api/admin/payments/course-prices/${courseId}`, { priceId: null });
  await apiAs(admin, 'POST', '/api/admin/payments/settings', {
    promotionCodes: false,
    trialDays: null,
    trialWithoutCard: false,
  });
  await apiAs(admin, 'POST', '/api/admin/payments/settings', {
    remove: ['secretKey', 'webhookSecret'],
    priceIds: [],
  });
});

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function memberWithId(prefix: string): Promise<{ token: string; id: string }> {
  const member = await registerMember(prefix);
  const token = await tokenFor(member.email, member.password);
  const me = await apiAs<{ data: { _id: string } }>(token, 'GET', '/api/auth/me');
  return { token, id: me.data._id };
}

interface StandInSession {
  id: string;
  mode: string;
  client_reference_id: string;
  customer: string;
  subscription: string | null;
  payment_intent: string | null;
}
async function sessionOf(userId: string, mode: string): Promise<StandInSession> {
  const sessions = (await (await fetch(`${STRIPE}/_stand-in/checkout-sessions`)).json()) as StandInSession[];
  const session = sessions.find((s) => s.client_reference_id === userId && s.mode === mode);
  if (!session) throw new Error('The member never went through the stand-in checkout');
  return session;
}
async function deliver(event: StripeEventFixture): Promise<void> {
  const { payload, header } = signed(event);
  const response = await fetch(`${E2E_BASE_URL}/api/payments/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  expect(response.status).toBe(200);
}

for (const viewport of VIEWPORTS) {
  test(`a free member buys a course on its own and it opens without a reload (${viewport.width}px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const member = await memberWithId(`buyer${viewport.width}`);
    await openSignedIn(page, member.token, `/courses/${COURSE.slug}`);
    const buy = page.getByRole('button', { name: 'Buy this course — £49.00' });
    await expect(buy).toBeVisible();
    await expect(page.getByText('Or buy this course on its own for £49.00')).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, `a locked course with Buy at ${viewport.width}px`);
    await shoot(page, `course-buy-${viewport.width}`);

    await buy.click();
    // Stripe's page (the stand-in) takes the payment and sends the member back to the course.
    await expect(page).toHaveURL(new RegExp(`/courses/${COURSE.slug}\\?checkout=bought$`));
    await expect(page.getByText('Your payment is being confirmed with Stripe')).toBeVisible();
    await expect(page.getByRole('button', { name: /Buy this course/ })).toHaveCount(0);
    await page.evaluate(() => Object.assign(window, { stayedHere: true }));

    const session = await sessionOf(member.id, 'payment');
    await deliver(
      courseCheckoutCompleted({
        userId: member.id,
        customer: session.customer,
        sessionId: session.id,
        paymentIntent: session.payment_intent!,
        courseId,
        priceId: COURSE_PRICE,
      }),
    );
    await expect(page.getByText('Payment confirmed: the course is yours.')).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('link', { name: `Start: ${LESSON.title}` })).toBeVisible();
    await expect(page.getByTestId('lock-note')).toHaveCount(0);
    expect(await page.evaluate(() => 'stayedHere' in window)).toBe(true);
    await shoot(page, `course-bought-${viewport.width}`);

    // The member's home lists it.
    await page.goto('/dashboard');
    const bought = page.getByRole('region', { name: 'Courses you bought' });
    await expect(bought.getByRole('link', { name: COURSE.title })).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, `the member home with a bought course at ${viewport.width}px`);
    await shoot(page, `home-bought-${viewport.width}`);
  });
}

const VISITOR_WAYS = [
  { viewport: VIEWPORTS[0]!, way: 'joins' },
  { viewport: VIEWPORTS[1]!, way: 'signs in' },
] as const;
for (const { viewport, way } of VISITOR_WAYS) {
  test(`a visitor sees a course's own price, ${way} and comes back to the course to buy it (${viewport.width}px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/courses/${COURSE.slug}`);
    const lock = page.getByTestId('lock-note');
    await expect(lock.getByText('Or buy this course on its own for £49.00')).toBeVisible();
    await expect(page.getByRole('button', { name: /Buy this course/ })).toHaveCount(0);
    await settle(page);
    await expectNoSeriousViolations(page, `a locked course's price for a visitor at ${viewport.width}px`);
    await shoot(page, `course-visitor-price-${viewport.width}`);

    if (way === 'joins') {
      await lock.getByRole('link', { name: 'Create an account to buy it' }).click();
      await expect(page).toHaveURL(/\/join\?next=%2Fcourses%2F/);
      await page.getByLabel('Full Name').fill('Vi Visitor');
      await page.getByLabel('Email Address').fill(`visitor-buyer-${Date.now()}@e2e.test`);
      await page.getByLabel('Create Password').fill('visitor-pass-1');
      await page.getByRole('button', { name: 'Complete Enrollment' }).click();
    } else {
      const member = await registerMember('visitor-buyer');
      await lock.getByRole('link', { name: 'Sign in to buy it' }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fcourses%2F/);
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password', { exact: true }).fill(member.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
    }
    // Back on the course, signed in as a free member: Buy is there.
    await expect(page).toHaveURL(new RegExp(`/courses/${COURSE.slug}$`));
    await expect(page.getByRole('button', { name: 'Buy this course — £49.00' })).toBeVisible();
    if (way === 'joins')
      await expect(page.getByRole('status').filter({ hasText: 'Welcome, Vi Visitor' })).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(
      page,
      `the course after ${way === 'joins' ? 'joining' : 'signing in'} at ${viewport.width}px`,
    );
    await shoot(page, `course-visitor-back-${viewport.width}`);
  });
}

test('a member on a free trial without a card, with a promotion code, sees both on their account page', async ({
  page,
}) => {
  const member = await memberWithId('trialist');
  const { url } = await apiAs<{ url: string }>(member.token, 'POST', '/api/payments/checkout', {});
  // The member types SPRING on Stripe's page (the stand-in) and gives no card.
  await fetch(`${url}?promo=SPRING`, { redirect: 'manual' });
  const session = await sessionOf(member.id, 'subscription');
  await deliver(
    checkoutCompleted({
      userId: member.id,
      customer: session.customer,
      subscription: session.subscription!,
      sessionId: session.id,
    }),
  );
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await openSignedIn(page, member.token, '/account');
    const billing = page.getByRole('region', { name: 'Billing' });
    await expect(billing.getByText('Free trial ends', { exact: true })).toBeVisible();
    await expect(billing.getByText(/^SPRING: 20% off, until /)).toBeVisible();
    await expect(billing.getByText(/add a card in Manage billing before then/)).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, `the Billing of a trial at ${viewport.width}px`);
    await shoot(page, `billing-trial-discount-${viewport.width}`);
  }
});

test('the owner picks prices from Stripe, switches on codes and a trial, and sells a course on its own', async ({
  page,
}) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Payments' })
    .click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const list = page.getByRole('list', { name: 'Prices in Stripe' });
    const monthly = list.getByRole('listitem').filter({ hasText: MONTHLY }).first();
    await expect(monthly).toContainText('£12.00 a month');
    await expect(monthly.getByRole('checkbox', { name: 'Offer for the membership' })).toBeChecked();
    await expect(list.getByRole('listitem').filter({ hasText: RETIRED })).toContainText('Archived');
    await expect(list.getByRole('listitem').filter({ hasText: COURSE_PRICE })).toContainText(
      'For a course sold on its own',
    );
    await expect(page.getByLabel('Members may enter a promotion code at checkout')).toBeChecked();
    await expect(page.getByLabel('Free trial (days)')).toHaveValue('14');
    await expect(page.getByLabel(`Price of ${COURSE.title}`)).toHaveValue(COURSE_PRICE);
    await settle(page);
    await expectNoSeriousViolations(page, `the Payments panel's prices at ${viewport.width}px`);
    await shoot(page, `payments-panel-prices-${viewport.width}`);
  }
  // Unticking a price changes the form, to be saved.
  const monthly = page
    .getByRole('list', { name: 'Prices in Stripe' })
    .getByRole('listitem')
    .filter({ hasText: MONTHLY })
    .first();
  await monthly.getByRole('checkbox').uncheck();
  await expect(page.getByLabel('Price IDs of the Architect Tier')).toHaveValue('');
  await monthly.getByRole('checkbox').check();
  await expect(page.getByLabel('Price IDs of the Architect Tier')).toHaveValue(MONTHLY);
  // The course's price is saved at once.
  await page.getByLabel(`Price of ${COURSE.title}`).selectOption('');
  await expect(page.getByText(`“${COURSE.title}” is no longer sold on its own.`)).toBeVisible();
  await page.getByLabel(`Price of ${COURSE.title}`).selectOption(COURSE_PRICE);
  await expect(page.getByText(`“${COURSE.title}” is sold on its own at £49.00.`)).toBeVisible();
});
