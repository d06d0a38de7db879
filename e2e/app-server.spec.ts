import { expect, type Page, test } from '@playwright/test';
import { ADMIN, E2E_RATE_LIMIT_MAX } from './support/env';
import { adminToken, answerConfirmation, apiAs, confirmPassword, openSignedIn } from './support/session';

interface Status {
  status: { uptime: number };
}

async function openPanel(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Node.js' })
    .click();
  await expect(page.getByRole('heading', { name: 'Server Status' })).toBeVisible();
}

const tile = (page: Page, label: string) => page.getByTestId(`status-${label}`);

/** When the process answering started, from its uptime: later after a restart. */
async function serverStartedAt(): Promise<number> {
  const { status } = await apiAs<Status>(await adminToken(), 'GET', '/api/admin/nodejs/status');
  return Date.now() - status.uptime;
}

test.afterAll(async () => {
  // Leave the settings as the other specs expect them.
  await apiAs(await adminToken(), 'POST', '/api/admin/nodejs/config', { rateLimitMax: E2E_RATE_LIMIT_MAX });
});

test('the status block shows uptime, version, memory and CPU in the spec formats, and updates', async ({
  page,
}) => {
  test.setTimeout(45_000);
  await openPanel(page);
  await expect(tile(page, 'Uptime')).toHaveText(/^(\d+d \d+h|\d+h \d+m|\d+m \d+s|\d+s)$/);
  await expect(tile(page, 'Node Version')).toHaveText(/^v\d+\.\d+\.\d+$/);
  await expect(tile(page, 'Memory Usage')).toHaveText(/^\d+(\.\d)? (B|KB|MB|GB) \/ \d+(\.\d)? (B|KB|MB|GB)$/);
  await expect(tile(page, 'CPU Usage')).toHaveText(/^(\d+\.\d{2}s|N\/A)$/);
  // The browser tests run two workers (global-setup): each is listed with its own figures.
  await expect(page.getByRole('heading', { name: /^2 workers · supervisor pid \d+/ })).toBeVisible();
  await expect(page.getByTestId('worker-row')).toHaveCount(2);
  await expect(page.getByTestId('worker-row').first()).toHaveText(/^\d+.*\d+(\.\d)? (KB|MB|GB)/);
  await expect(page.getByLabel('Workers', { exact: true })).toHaveValue('2');
  await expect(
    page.getByText('Set by the WORKERS environment variable, so it is read-only here.'),
  ).toBeVisible();

  // Every 10 seconds on its own...
  const updated = page.getByText(/^Updated .* every 10 seconds$/);
  const first = await updated.textContent();
  await expect(updated).not.toHaveText(first ?? '', { timeout: 13_000 });
  // ...and at once with the refresh button.
  await page.waitForTimeout(1100);
  const second = await updated.textContent();
  await page.getByRole('button', { name: 'Refresh status' }).click();
  await expect(updated).not.toHaveText(second ?? '', { timeout: 3000 });
});

test('saving shows the spec message, and a field fixed by the environment is read-only with a note', async ({
  page,
}) => {
  await openPanel(page);
  // The browser tests set PORT, so the port is the environment's.
  await expect(page.getByLabel('Server Port')).toBeDisabled();
  await expect(
    page.getByText('Set by the PORT environment variable, so it is read-only here.'),
  ).toBeVisible();
  await expect(
    page.getByText(/Server Port, Environment and Workers take effect when the server restarts/),
  ).toBeVisible();

  await page.getByLabel('Rate Limit Max Requests').fill('5000');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  // A change that can take the site: the password is asked first, then the save goes through.
  await confirmPassword(page, ADMIN.password);
  await expect(
    page.getByText('Node.js configuration saved! Restart the server for changes to take effect.'),
  ).toBeVisible();
  const saved = await apiAs<{ config: { rateLimitMax: number } }>(
    await adminToken(),
    'GET',
    '/api/admin/nodejs/config',
  );
  expect(saved.config.rateLimitMax).toBe(5000);

  // Every bad field at once, at the field, in the label's words; nothing is sent.
  await page.getByLabel('Rate Limit Window (ms)').fill('10');
  await page.getByLabel('Max Request Size').fill('huge');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to save' })).toHaveText(
    /Failed to save: please correct Max Request Size and Rate Limit Window \(ms\)\./,
  );
  await expect(page.getByLabel('Rate Limit Window (ms)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Max Request Size')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/^Rate Limit Window \(ms\) must be between 1000/)).toBeVisible();
  await expect(page.getByText(/^Max Request Size must be/)).toBeVisible();
  await expect(page.getByText(/rateLimitWindow|maxRequestSize/)).toHaveCount(0);
  // Errors stay until dismissed.
  await page.waitForTimeout(3500);
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to save' })).toBeVisible();
  await page
    .locator('[data-notice]')
    .filter({ hasText: 'Failed to save' })
    .getByRole('button', { name: 'Dismiss notice' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to save' })).toHaveCount(0);
});

test('restart asks first, says it started, and the console keeps working without signing in again', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openPanel(page);
  const before = await serverStartedAt();

  // Declining the confirmation restarts nothing.
  await page.getByRole('button', { name: 'Restart Server' }).click();
  await answerConfirmation(page, false);
  await page.waitForTimeout(500);
  expect(Math.abs((await serverStartedAt()) - before)).toBeLessThan(1000);

  await page.getByRole('button', { name: 'Restart Server' }).click();
  const question = await answerConfirmation(page, true);
  await confirmPassword(page, ADMIN.password);
  // Both buttons wait while the request is in flight.
  await expect(page.getByRole('button', { name: 'Restarting...' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save Configuration' })).toBeDisabled();
  expect(question).toContain('This will disconnect all users briefly');
  // The notice is true when shown: it turns into "Server is back" once the new process answers.
  await expect(page.getByRole('status').filter({ hasText: 'Server is back' })).toBeVisible({
    timeout: 45_000,
  });
  await expect(page.getByText('Server restart initiated...')).toHaveCount(0);
  await expect.poll(serverStartedAt, { timeout: 30_000 }).toBeGreaterThan(before + 1000);

  // Same page, same token, a new server process.
  await expect(page.getByRole('button', { name: 'Restart Server' })).toBeEnabled();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'User Management' })
    .click();
  // Other specs add users: look the owner up rather than hoping for the first page.
  await page.getByRole('searchbox', { name: 'Search' }).fill(ADMIN.email);
  await expect(page.getByRole('cell', { name: ADMIN.email })).toBeVisible();
});
