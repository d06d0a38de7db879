import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { ADMIN, E2E_RATE_LIMIT_MAX } from './support/env';
import { adminToken, apiAs, confirmPassword, openSignedIn, tokenFor } from './support/session';

test.use({ bypassCSP: true });
test.describe.configure({ mode: 'serial' });

const SHOTS = process.env.SHOTS_DIR;
const run = `ct${Date.now().toString(36)}`;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

async function openPanel(page: Page, label: string, token?: string): Promise<void> {
  await openSignedIn(page, token ?? (await adminToken()), '/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  // Below the lg breakpoint the sidebar is a drawer.
  if (page.viewportSize()!.width < 1024) await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('button', { name: label }).click();
}

test('a system change asks for the password in the console’s dialog, and a wrong one changes nothing', async ({
  page,
}) => {
  await openPanel(page, 'Node.js');
  await page.getByLabel('Rate Limit Max Requests').fill('4321');
  await page.getByRole('button', { name: 'Save Configuration' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await expectNoSeriousViolations(page, 'the password dialog');
  await shoot(page, `password-dialog-${page.viewportSize()!.width}`);

  await dialog.getByLabel('Your password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That password is not right.');
  // Escape cancels: nothing is saved, and the panel says so.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/your password was not confirmed/)).toBeVisible();
  const before = await apiAs<{ config: { rateLimitMax: number } }>(
    await adminToken(),
    'GET',
    '/api/admin/nodejs/config',
  );
  expect(before.config.rateLimitMax).not.toBe(4321);

  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await confirmPassword(page, ADMIN.password);
  await expect(
    page.getByText('Node.js configuration saved! Restart the server for changes to take effect.'),
  ).toBeVisible();
  const after = await apiAs<{ config: { rateLimitMax: number } }>(
    await adminToken(),
    'GET',
    '/api/admin/nodejs/config',
  );
  expect(after.config.rateLimitMax).toBe(4321);
  // Within the 10 minutes a second change is one click.
  await page.getByLabel('Rate Limit Max Requests').fill(String(E2E_RATE_LIMIT_MAX));
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByRole('dialog', { name: 'Confirm it is you' })).toBeHidden();
  await expect(
    page.getByText('Node.js configuration saved! Restart the server for changes to take effect.'),
  ).toBeVisible();
});

test('deleting a user asks in the console’s own dialog, which names them; Escape keeps them', async ({
  page,
}) => {
  const { data: user } = await apiAs<{ data: { _id: string; name: string } }>(
    await adminToken(),
    'POST',
    '/api/admin/users',
    { name: `${run} Admin`, email: `${run}-admin@e2e.test`, password: 'member-pass-1', role: 'admin' },
  );
  let browserConfirm = false;
  page.on('dialog', (d) => {
    browserConfirm = true;
    void d.dismiss();
  });
  await openPanel(page, 'User Management');
  await page.getByPlaceholder('Search by name or email...').fill(run);
  const row = page.getByRole('row').filter({ hasText: `${run} Admin` });
  await row.getByRole('button', { name: /Delete/ }).click();
  const confirmDialog = page.getByRole('alertdialog', { name: 'Delete this administrator?' });
  await expect(confirmDialog).toBeVisible();
  await expect(confirmDialog).toContainText(`${run} Admin`);
  await expect(confirmDialog).toContainText('is an administrator');
  await expect(confirmDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page, 'the confirmation dialog');
  await shoot(page, `confirmation-${page.viewportSize()!.width}`);
  await page.keyboard.press('Escape');
  await expect(confirmDialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: /Delete/ }).click();
  await page.getByRole('button', { name: 'Delete administrator' }).click();
  // Removing an administrator needs the password too (asked once per 10 minutes).
  await confirmPassword(page, ADMIN.password);
  await expect(row).toHaveCount(0);
  expect(browserConfirm).toBe(false);
  expect(user._id).toBeTruthy();
});

test('the Activity section lists the changes newest first, filters by kind and person, pages, and passes axe', async ({
  page,
}) => {
  const token = await adminToken();
  for (let i = 0; i < 26; i += 1) {
    await apiAs(token, 'POST', '/api/playlists', {
      name: `${run} list ${i}`,
      items: [],
      images: [],
      videos: [],
    });
  }
  await openPanel(page, 'Activity');
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
  await expect(entries.first()).toContainText(`Created the playlist "${run} list 25"`);

  await page.getByLabel('Kind').selectOption({ label: 'Playlist created' });
  await page.getByLabel('Person (e-mail)').fill(ADMIN.email);
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(entries).toHaveCount(25);
  for (const text of await entries.allInnerTexts()) expect(text).toContain('Playlist created');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await expect(entries.first()).toContainText('Playlist created');

  await page.getByLabel('Kind').selectOption({ label: 'Node.js settings saved' });
  await expect(entries.first()).toContainText('Saved the Node.js settings');
  await entries.first().getByText('Before and after').click();
  await expect(entries.first().getByText('After', { exact: true })).toBeVisible();

  await page.getByLabel('Kind').selectOption('');
  await expectNoSeriousViolations(page, 'the Activity section');
  await shoot(page, `activity-${page.viewportSize()!.width}`);
  // Nothing in the section edits or deletes an entry.
  await expect(page.getByRole('list', { name: 'Activity entries' }).getByRole('button')).toHaveCount(0);
});

test('a person whose account is deleted is signed out at their next call, with a message', async ({
  page,
}) => {
  const email = `${run}-gone@e2e.test`;
  const { data } = await apiAs<{ data: { _id: string } }>(await adminToken(), 'POST', '/api/admin/users', {
    name: `${run} Gone`,
    email,
    password: 'gone-pass-1',
    role: 'admin',
  });
  const theirToken = await tokenFor(email, 'gone-pass-1');
  await openPanel(page, 'User Management', theirToken);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await apiAs(await adminToken(), 'DELETE', `/api/admin/users/${data._id}`);

  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Activity' })
    .click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toContainText('You have been signed out');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an administrator who is demoted is signed out at their next call, told why', async ({ page }) => {
  const email = `${run}-demoted@e2e.test`;
  const { data } = await apiAs<{ data: { _id: string } }>(await adminToken(), 'POST', '/api/admin/users', {
    name: `${run} Demoted`,
    email,
    password: 'demoted-pass-1',
    role: 'admin',
  });
  const theirToken = await tokenFor(email, 'demoted-pass-1');
  await openPanel(page, 'User Management', theirToken);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  // Their session lives on; the console's API now answers them 403 NOT_ADMIN.
  await apiAs(await adminToken(), 'PUT', `/api/admin/users/${data._id}`, { role: 'user' });

  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Activity' })
    .click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toContainText('your account is no longer an administrator');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the Activity section, the password dialog and a confirmation fit the screen and pass axe', async ({
    page,
  }) => {
    const fitsWidth = async (what: string) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${what} is wider than the phone`).toBeLessThanOrEqual(0);
    };

    await openPanel(page, 'Activity');
    await expect(
      page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem').first(),
    ).toBeVisible();
    await fitsWidth('the Activity section');
    await expectNoSeriousViolations(page, 'the Activity section on a phone');
    await shoot(page, 'activity-390');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('button', { name: 'Node.js' })
      .click();
    await page.getByRole('button', { name: 'Restart Server' }).click();
    const question = page.getByRole('alertdialog', { name: 'Restart the server?' });
    await expect(question).toBeVisible();
    await expect(question.getByRole('button', { name: 'Restart Server' })).toBeInViewport();
    await expectNoSeriousViolations(page, 'a confirmation on a phone');
    await shoot(page, 'confirmation-390');
    await page.keyboard.press('Escape');
    await expect(question).toBeHidden();

    await page.getByRole('button', { name: 'Save Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeInViewport();
    await fitsWidth('the password dialog');
    await expectNoSeriousViolations(page, 'the password dialog on a phone');
    await shoot(page, 'password-dialog-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});
