import { expect, test } from '@playwright/test';
import { checkoutCompleted, signed, TEST_WEBHOOK_SECRET } from '../server/src/test/stripe-events';
import { stripePrice } from '../server/src/test/stripe-stand-in';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_BASE_URL } from './support/env';
import {
  adminToken,
  answerConfirmation,
  apiAs,
  openSignedIn,
  registerMember,
  tokenFor,
} from './support/session';

/**
 * Paid membership through Stripe, with a stand-in of Stripe's API (started by global-setup, its
 * address in E2E_STRIPE_URL): its checkout page "pays" and sends the browser back, and the test
 * delivers Stripe's signed event as Stripe would.
 */
const STRIPE = process.env.E2E_STRIPE_URL ?? '';
const PRICE = 'price_e2e_monthly';
const STAND_IN_KEY = 'sk_test_standin0000000000000000';

test.skip(!STRIPE, 'needs the Stripe stand-in started by global-setup');
// axe-core is injected into the page to check what it shows.
test.use({ bypassCSP: true });

test.beforeAll(async () => {
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
  client_reference_id: string;
  customer: string;
  subscription: string | null;
}

async function deliverCheckoutCompleted(userId: string): Promise<void> {
  const sessions = (await (await fetch(`${STRIPE}/_stand-in/checkout-sessions`)).json()) as StandInSession[];
  const session = sessions.find((s) => s.client_reference_id === userId && s.subscription);
  if (!session?.subscription) throw new Error('The member never went through the stand-in checkout');
  const { payload, header } = signed(
    checkoutCompleted({ userId, customer: session.customer, subscription: session.subscription }),
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
