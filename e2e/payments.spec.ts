import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { checkoutCompleted, signed, TEST_WEBHOOK_SECRET } from '../server/src/test/stripe-events';
import { stripePrice } from '../server/src/test/stripe-stand-in';
import { expectNoSeriousViolations } from './support/axe';
import { settle } from './support/courses';
import { E2E_BASE_URL, e2eStripeUrl } from './support/env';
import {
  adminToken,
  answerConfirmation,
  apiAs,
  openSignedIn,
  registerMember,
  tokenFor,
} from './support/session';

/**
 * Paid membership through Stripe, with a stand-in of Stripe's API (one per worker, started by
 * global-setup, its address in e2eStripeUrl()): its checkout page "pays" and sends the browser back, and the test
 * delivers Stripe's signed event as Stripe would.
 */
const STRIPE = e2eStripeUrl();
const PRICE = 'price_e2e_monthly';
const STAND_IN_KEY = 'sk_test_standin0000000000000000';
const SHOTS = process.env.SHOTS_DIR;
const run = Date.now().toString(36);
const COURSE = { title: `Architect Studio ${run}`, slug: `architect-studio-${run}` };
const LESSON = { title: 'The first drawing', text: 'Draw the room you work in, from above.' };
const OFFER = 'The Architect Tier opens every paid course.';

test.skip(!STRIPE, 'needs the Stripe stand-in started by global-setup');
// axe-core is injected into the page to check what it shows.
test.use({ bypassCSP: true });

test.beforeAll(async () => {
  await paidCourse();
  await fetch(`${STRIPE}/_stand-in/prices`, {
    method: 'POST',
    body: JSON.stringify(stripePrice(PRICE, { amount: 1200, interval: 'month' })),
  });
  await apiAs(await adminToken(), 'POST', '/api/admin/payments/settings', {
    secretKey: STAND_IN_KEY,
    webhookSecret: TEST_WEBHOOK_SECRET,
    priceIds: [PRICE],
  });
});

// The other specs run without Stripe, as a site does until its owner connects it.
test.afterAll(async () => {
  await apiAs(await adminToken(), 'POST', '/api/admin/payments/settings', {
    remove: ['secretKey', 'webhookSecret'],
    priceIds: [],
  });
});

interface StandInSession {
  id: string;
  client_reference_id: string;
  customer: string;
  subscription: string | null;
}

/** A published paid course of one lesson, and the owner's upgrade offer, made through the console's API. */
async function paidCourse(): Promise<void> {
  const admin = await adminToken();
  type Course = { data: { id: string; sections: Array<{ id: string }> } };
  await apiAs(admin, 'PUT', '/api/admin/courses/settings', {
    upgradeText: OFFER,
    upgradeLinkLabel: 'What the tier includes',
    upgradeLinkUrl: '/courses',
  });
  const { data: created } = await apiAs<Course>(admin, 'POST', '/api/admin/courses', { title: COURSE.title });
  await apiAs(admin, 'PUT', `/api/admin/courses/${created.id}`, { access: 'paid', published: true });
  const { data: course } = await apiAs<Course>(admin, 'POST', `/api/admin/courses/${created.id}/sections`, {
    title: 'Week 1',
  });
  const { data: added } = await apiAs<{ data: { lesson: { id: string } } }>(
    admin,
    'POST',
    `/api/admin/courses/${created.id}/sections/${course.sections[0]!.id}/lessons`,
    { title: LESSON.title },
  );
  await apiAs(admin, 'PUT', `/api/admin/courses/${created.id}/lessons/${added.lesson.id}`, {
    markdown: LESSON.text,
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Set on the page's window: still there later means the page was never loaded again. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { stayedHere: true }));
}
const stillSamePage = (page: Page) => page.evaluate(() => 'stayedHere' in window);

async function memberWithId(prefix: string): Promise<{ token: string; id: string }> {
  const member = await registerMember(prefix);
  const token = await tokenFor(member.email, member.password);
  const me = await apiAs<{ data: { _id: string } }>(token, 'GET', '/api/auth/me');
  return { token, id: me.data._id };
}

async function deliverCheckoutCompleted(userId: string): Promise<void> {
  const sessions = (await (await fetch(`${STRIPE}/_stand-in/checkout-sessions`)).json()) as StandInSession[];
  const session = sessions.find((s) => s.client_reference_id === userId && s.subscription);
  if (!session?.subscription) throw new Error('The member never went through the stand-in checkout');
  const { payload, header } = signed(
    checkoutCompleted({
      userId,
      customer: session.customer,
      subscription: session.subscription,
      sessionId: session.id,
    }),
  );
  const response = await fetch(`${E2E_BASE_URL}/api/payments/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  expect(response.status).toBe(200);
}

test('a free member upgrades through Stripe and sees the paid tier without a reload', async ({ page }) => {
  const member = await registerMember('payer');
  const token = await tokenFor(member.email, member.password);
  const me = await apiAs<{ data: { _id: string } }>(token, 'GET', '/api/auth/me');
  await openSignedIn(page, token, '/dashboard');

  const offer = page.getByRole('region', { name: 'Architect Tier' });
  await expect(offer.getByText('Go further with the Architect Tier')).toBeVisible();
  await expectNoSeriousViolations(page, 'the dashboard’s upgrade offer');
  await offer.getByRole('button', { name: 'Upgrade — £12.00 a month' }).click();

  // Stripe's page (the stand-in) takes the payment and sends the member back.
  await expect(page).toHaveURL(/\/dashboard\?checkout=success$/);
  await expect(page.getByText('Your payment is being confirmed with Stripe')).toBeVisible();
  await expect(page.getByText('Your Architect Tier membership is active')).toBeHidden();

  // Stripe's signed word arrives; the page shows the paid tier by itself.
  await deliverCheckoutCompleted(me.data._id);
  await expect(page.getByText('Payment confirmed: welcome to the Architect Tier.')).toBeVisible({
    timeout: 10_000,
  });
  await expect(page.getByText('Your Architect Tier membership is active')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The account page shows the plan and the next payment, and Manage billing opens Stripe's portal.
  await page.getByRole('link', { name: 'account page' }).click();
  const billing = page.getByRole('region', { name: 'Billing' });
  await expect(billing.getByText('Architect Tier, £12.00 a month')).toBeVisible();
  await expect(billing.getByText('Active')).toBeVisible();
  await expect(billing.getByText('Next payment')).toBeVisible();
  await expectNoSeriousViolations(page, 'the account page’s Billing');
  // Deleting the account would end the subscription too, and the page says so before anyone asks.
  await expect(
    page.getByRole('region', { name: 'Delete account' }).getByText(/Your subscription is cancelled at once/),
  ).toBeVisible();
  await billing.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Your Account' })).toBeVisible();
});

test('a free member upgrades from a locked paid course, and it opens without a reload', async ({ page }) => {
  const member = await memberWithId('course-payer');
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await openSignedIn(page, member.token, `/courses/${COURSE.slug}`);
    await expect(page.getByTestId('lock-note')).toContainText(
      'Part of the paid membership: upgrade to open it.',
    );
    await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
    await expect(page.getByRole('button', { name: 'Upgrade — £12.00 a month' })).toBeVisible();
    // The owner's link stays beside the button.
    await expect(page.getByRole('link', { name: 'What the tier includes' })).toHaveAttribute(
      'href',
      '/courses',
    );
    await settle(page);
    await expectNoSeriousViolations(
      page,
      `a locked paid course with the Upgrade button at ${viewport.width}px`,
    );
    await shoot(page, `course-locked-free-member-${viewport.width}`);
  }

  await page.getByRole('button', { name: 'Upgrade — £12.00 a month' }).click();
  // Stripe's page (the stand-in) takes the payment and sends the member back to the course.
  await expect(page).toHaveURL(new RegExp(`/courses/${COURSE.slug}\\?checkout=success$`));
  await expect(page.getByText('Your payment is being confirmed with Stripe')).toBeVisible();
  await expect(page.getByTestId('lock-note')).toBeVisible();
  // No second checkout while the first is being confirmed.
  await expect(page.getByRole('link', { name: 'What the tier includes' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Upgrade/ })).toHaveCount(0);
  await shoot(page, 'course-payment-being-confirmed-390');
  await markPage(page);

  await deliverCheckoutCompleted(member.id);
  await expect(page.getByText('Payment confirmed: welcome to the Architect Tier.')).toBeVisible({
    timeout: 10_000,
  });
  await expect(page.getByRole('link', { name: `Start: ${LESSON.title}` })).toBeVisible();
  await expect(page.getByTestId('lock-note')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/courses/${COURSE.slug}$`));
  expect(await stillSamePage(page)).toBe(true);
  await shoot(page, 'course-payment-confirmed-390');

  await page.getByRole('link', { name: `Start: ${LESSON.title}` }).click();
  await expect(page.getByText(LESSON.text)).toBeVisible();
});

test('a free member upgrades from a locked lesson, and it opens without a reload', async ({ page }) => {
  const member = await memberWithId('lesson-payer');
  await openSignedIn(page, member.token, `/courses/${COURSE.slug}`);
  await page.getByRole('link', { name: new RegExp(LESSON.title) }).click();
  await expect(page.getByRole('heading', { name: LESSON.title, level: 1 })).toBeVisible();
  const lessonUrl = page.url();
  await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
  await settle(page);
  await expectNoSeriousViolations(page, 'a locked lesson with the Upgrade button');
  await page.getByRole('button', { name: 'Upgrade — £12.00 a month' }).click();

  await expect(page).toHaveURL(`${lessonUrl}?checkout=success`);
  await expect(page.getByText('Your payment is being confirmed with Stripe')).toBeVisible();
  await expect(page.getByText(LESSON.text)).toHaveCount(0);
  await markPage(page);
  await deliverCheckoutCompleted(member.id);
  await expect(page.getByText(LESSON.text)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText('Payment confirmed: welcome to the Architect Tier.')).toBeVisible();
  expect(await stillSamePage(page)).toBe(true);
});

test('the owner previews a locked paid course as a free member: the offer and the Upgrade button, not a visitor’s lock', async ({
  page,
}) => {
  await openSignedIn(page, await adminToken(), `/courses/${COURSE.slug}?as=free`);
  await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
  const upgrade = page.getByRole('button', { name: 'Upgrade — £12.00 a month' });
  await expect(upgrade).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
  await shoot(page, 'course-preview-as-free-member');
  // In preview the button starts no checkout: the owner stays on the page.
  await upgrade.click();
  await expect(page).toHaveURL(new RegExp(`/courses/${COURSE.slug}\\?as=free$`));
});

test('a cancelled checkout changes nothing and says so', async ({ page }) => {
  const member = await registerMember('undecided');
  await openSignedIn(page, await tokenFor(member.email, member.password), '/dashboard?checkout=cancelled');
  await expect(page.getByText('Checkout cancelled: nothing was charged')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade — £12.00 a month' })).toBeVisible();
});

test('the owner connects Stripe in the console and Test says what Stripe accepts', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Payments' })
    .click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(page.getByText('Connected to Stripe in test mode')).toBeVisible();
  // The key is never shown: its last four characters at most.
  await expect(page.getByLabel('Secret key')).toHaveValue('');
  await expect(page.getByText(`ending in ${STAND_IN_KEY.slice(-4)}`)).toBeVisible();
  await expect(page.locator('body')).not.toContainText(STAND_IN_KEY);

  await page.getByRole('button', { name: 'Test' }).click();
  const result = page.getByRole('status', { name: 'Test result' });
  await expect(result.getByText('Stripe accepted the key (test mode).')).toBeVisible();
  await expect(result.getByText('£12.00 a month, recurring.')).toBeVisible();
  await expectNoSeriousViolations(page, 'the console’s Payments section, connected and tested');

  await page.getByLabel('Secret key').fill('sk_test_not_the_right_key_0000');
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText(/Stripe refused the key/)).toBeVisible();
});

test('an administrator changes a paying member’s tier only past the warning, and deleting them cancels the subscription', async ({
  page,
}) => {
  const member = await registerMember('subscriber');
  const token = await tokenFor(member.email, member.password);
  const me = await apiAs<{ data: { _id: string } }>(token, 'GET', '/api/auth/me');
  const { url } = await apiAs<{ url: string }>(token, 'POST', '/api/payments/checkout', {});
  // The member pays on Stripe's page (the stand-in), and Stripe's signed word arrives.
  await fetch(url, { redirect: 'manual' });
  await deliverCheckoutCompleted(me.data._id);

  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'User Management' }).click();
  await page.getByPlaceholder('Search by name or email...').fill(member.email);
  const row = page.getByRole('row').filter({ hasText: member.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Stripe: Active');

  await page.getByRole('button', { name: `Edit ${member.name}` }).click();
  const editing = page.getByRole('row', { name: `Editing ${member.name}` });
  await editing.getByLabel('Tier').selectOption('free');
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes(me.data._id));
  await editing.getByRole('button', { name: 'Save' }).click();
  expect(await answerConfirmation(page, true)).toContain('Change a tier Stripe manages?');
  // The server refuses the change unless told the warning was seen.
  expect((await put).postDataJSON()).toMatchObject({ membershipTier: 'free', confirmManagedByStripe: true });
  await expect(editing).toHaveCount(0);
  await expect(row).toContainText('free');

  await page.getByRole('button', { name: `Delete ${member.name}` }).click();
  expect(await answerConfirmation(page, true)).toContain('their subscription is cancelled at once');
  await expect(page.getByText(`No users match “${member.email}”.`)).toBeVisible();
  const calls = (await (await fetch(`${STRIPE}/_stand-in/calls`)).json()) as Array<{ method: string }>;
  expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
});
