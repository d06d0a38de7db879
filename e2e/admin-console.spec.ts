import type { AdminStats } from '@common/schemas/admin-users';
import { expect, type Page, test } from '@playwright/test';
import { adminToken, apiAs, openSignedIn } from './support/session';

const run = Date.now().toString(36);
let counter = 0;

async function stats(): Promise<AdminStats> {
  return (await apiAs<{ data: AdminStats }>(await adminToken(), 'GET', '/api/admin/stats')).data;
}

async function addUser(tier: 'free' | 'paid'): Promise<void> {
  counter += 1;
  await apiAs(await adminToken(), 'POST', '/api/admin/users', {
    name: `Console ${run} ${counter}`,
    email: `console-${run}-${counter}@e2e.test`,
    password: 'console-pass-1',
    membershipTier: tier,
  });
}

const card = (page: Page, label: string) => page.getByRole('listitem', { name: label });
const number = (n: number) => new Intl.NumberFormat('en-US').format(n);

test('the sidebar lists every section in order and switches panels without leaving /admin/dashboard', async ({
  page,
}) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const sidebar = page.getByRole('navigation', { name: 'Console sections' });
  await expect(sidebar.getByRole('button')).toHaveText([
    /Dashboard/,
    /User Management/,
    /Courses/,
    /Activity/,
    /Background Manager/,
    /Media Manager/,
    /Payments/,
    /Site/,
    /Mail/,
    /MongoDB/,
    /Nginx/,
    /Node\.js/,
  ]);
  await expect(sidebar.getByText('System Settings')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  // The dashboard is the default section.
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(
    page.getByText("Welcome, Administrator. Here's a live snapshot of your platform."),
  ).toBeVisible();

  await sidebar.getByRole('button', { name: 'User Management' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await sidebar.getByRole('button', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the overview shows the three counts from the server', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const now = await stats();
  await expect(card(page, 'Total Users')).toContainText(number(now.totalUsers));
  await expect(card(page, 'Paid Members')).toContainText(number(now.paidMembers));
  await expect(card(page, 'Free Members')).toContainText(number(now.freeMembers));
});

test('the overview cards move on their own when users are added elsewhere', async ({ page }) => {
  test.setTimeout(45_000);
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const before = await stats();
  await expect(card(page, 'Total Users')).toContainText(number(before.totalUsers));

  // Another administrator adds two users; this page is left alone and must catch up by itself.
  await addUser('paid');
  await addUser('free');
  const after = await stats();
  await expect(card(page, 'Total Users')).toContainText(number(after.totalUsers), { timeout: 15_000 });
  await expect(card(page, 'Paid Members')).toContainText(number(after.paidMembers));
  await expect(card(page, 'Free Members')).toContainText(number(after.freeMembers));
});

test('the overview catches up at once when the window regains focus', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const before = await stats();
  await expect(card(page, 'Paid Members')).toContainText(number(before.paidMembers));
  await addUser('paid');
  // Well inside the 10 s polling interval: only the focus event can explain the change.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(card(page, 'Paid Members')).toContainText(number(before.paidMembers + 1), { timeout: 3_000 });
});

test('the console code is never sent to the public pages, and each panel loads when opened', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((s) => /admin-console|overview-panel|user-management/.test(s))).toBe(false);

  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
  expect(scripts.some((s) => s.includes('admin-console-route'))).toBe(true);
  expect(scripts.some((s) => s.includes('user-management-panel'))).toBe(false);
  await page.getByRole('button', { name: 'User Management' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  expect(scripts.some((s) => s.includes('user-management-panel'))).toBe(true);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the sidebar is a drawer that the menu button opens and a choice closes', async ({ page }) => {
    await openSignedIn(page, await adminToken(), '/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
    const sidebar = page.locator('#admin-sidebar');
    await expect(sidebar).not.toBeInViewport();

    // While off screen it cannot be reached with the keyboard either.
    await expect(sidebar).toHaveAttribute('inert');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(sidebar).toBeInViewport();
    await expect(sidebar).not.toHaveAttribute('inert');
    await page.keyboard.press('Escape');
    await expect(sidebar).not.toBeInViewport();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(sidebar).toBeInViewport();
    await sidebar.getByRole('button', { name: 'User Management' }).click();
    await expect(sidebar).not.toBeInViewport();
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    // Rows are cards on a phone: nothing needs scrolling sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: /^Edit / }).first()).toBeInViewport();
  });
});
