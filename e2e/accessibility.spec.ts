import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { adminToken, openSignedIn, registerMember, tokenFor } from './support/session';

// axe-core is injected as a script, which the site's own Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

const PUBLIC_PAGES = [
  '/',
  '/login',
  '/join',
  '/forgot-password',
  '/reset-password/some-token',
  '/courses',
  '/terms',
  '/no/such/page',
];

/** The page as a visitor sees it once everything has arrived, the slideshow included. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expect(page.getByTestId('slideshow')).toBeAttached();
}

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`public pages on a ${device}`, () => {
    test.use({ viewport });
    for (const path of PUBLIC_PAGES) {
      test(`${path} has no serious accessibility violation`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        await settle(page);
        await expectNoSeriousViolations(page, `${path} (${device})`);
      });
    }
  });
}

test('the member dashboard has no serious accessibility violation', async ({ page }) => {
  const member = await registerMember('a11y');
  await openSignedIn(page, await tokenFor(member.email, member.password), '/dashboard');
  await expect(page.getByRole('heading', { name: 'Your Dashboard' })).toBeVisible();
  await settle(page);
  await expectNoSeriousViolations(page, '/dashboard');
});

const CONSOLE_SECTIONS = [
  'Dashboard',
  'User Management',
  'Courses',
  'Activity',
  'Background Manager',
  'Media Manager',
  'Payments',
  'Site',
  'Mail',
  'MongoDB',
  'Nginx',
  'Node.js',
];

test('every console section has no serious accessibility violation', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const sidebar = page.getByRole('navigation', { name: 'Console sections' });
  for (const label of CONSOLE_SECTIONS) {
    const entry = sidebar.getByRole('button', { name: label, exact: true });
    await entry.click();
    await expect(entry).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('main').locator('h1, h2').first()).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, `the console's ${label} section`);
  }
});

test('the Add New User dialog has no serious accessibility violation', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'User Management', exact: true }).click();
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByRole('heading', { name: 'Add New User' })).toBeVisible();
  await settle(page);
  await expectNoSeriousViolations(page, 'the Add New User dialog');
});

test('the console on a phone, menu open, has no serious accessibility violation', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.locator('#admin-sidebar')).toBeInViewport();
  await settle(page);
  await expectNoSeriousViolations(page, 'the console on a phone with the menu open');
});

test('the database explorer has no serious accessibility violation', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/database/members');
  await expect(page.locator('h1').first()).toBeVisible();
  await settle(page);
  await expectNoSeriousViolations(page, '/admin/database/members');
});
