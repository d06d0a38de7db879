import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { isNginxAlive, readPid, workerPids } from '../server/src/features/nginx/nginx-process';
import { freePort } from '../server/src/test/free-port';
import { httpGet, nginxForTests, nginxProcessesUnder, stopNginx } from '../server/src/test/real-nginx';
import { ADMIN, E2E_DATA_DIR } from './support/env';
import { adminToken, answerConfirmation, apiAs, confirmPassword, openSignedIn } from './support/session';

// The e2e server manages its own nginx under its DATA_DIR; this spec gives it a free port.
const nginxDir = path.join(E2E_DATA_DIR, 'nginx');
let port: number;

test.beforeAll(async () => {
  test.skip(!(await nginxForTests()), 'nginx is not installed');
  // A retry starts from a stopped nginx too.
  await stopNginx(path.join(nginxDir, 'logs', 'nginx.pid'));
  port = await freePort();
  await apiAs(await adminToken(), 'POST', '/api/system/config', { port, sslEnabled: false });
});

test.afterAll(async () => {
  expect(await stopNginx(path.join(nginxDir, 'logs', 'nginx.pid'))).toEqual([]);
  expect(await nginxProcessesUnder(nginxDir)).toEqual([]);
});

async function openNginx(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Nginx' })
    .click();
  await expect(page.getByRole('heading', { name: 'Nginx', exact: true })).toBeVisible();
}

const state = (page: Page) => page.getByTestId('nginx-state');

test('an administrator changes the max body size, saves, and restarts nginx after confirming', async ({
  page,
}) => {
  await openNginx(page);
  await expect(state(page)).toHaveText('Stopped');
  await expect(page.getByLabel('HTTP port')).toHaveValue(String(port));

  // The HTTPS port is only asked for with SSL on.
  await expect(page.getByLabel('HTTPS port')).toHaveCount(0);
  await page.getByLabel('SSL enabled').check();
  await expect(page.getByLabel('HTTPS port')).toHaveValue('443');
  await page.getByLabel('SSL enabled').uncheck();
  await expect(page.getByLabel('HTTPS port')).toHaveCount(0);

  // Held back for a moment so that the busy label can be seen.
  await page.route('**/api/system/nginx/config', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  await page.getByLabel('Max body size').fill('256M');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await confirmPassword(page, ADMIN.password);
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'Nginx configuration' })).toHaveText(
    'Nginx configuration saved successfully!',
  );
  await expect(page.getByRole('list', { name: 'Saved versions' }).getByText('Live')).toBeVisible();

  await page.reload();
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Nginx' })
    .click();
  await expect(page.getByLabel('Max body size')).toHaveValue('256M');

  // Nothing runs, so the button says Start. Dismissed: nothing happens.
  await page.getByRole('button', { name: 'Start Nginx' }).click();
  await answerConfirmation(page, false);
  await expect(page.getByRole('button', { name: 'Start Nginx' })).toBeEnabled();
  await expect(state(page)).toHaveText('Stopped');

  await page.getByRole('button', { name: 'Start Nginx' }).click();
  const question = await answerConfirmation(page, true);
  await confirmPassword(page, ADMIN.password);
  await expect(page.getByRole('status').filter({ hasText: 'restarted' })).toHaveText(
    'Nginx restarted successfully!',
  );
  expect(question).toContain('Start Nginx');
  await expect(state(page)).toHaveText('Running');
  await expect(page.getByText(/^nginx 1\.\d+\.\d+$/)).toBeVisible();

  // nginx now serves the site: the page through it, the hashed bundle straight from the static root.
  const home = await httpGet(`http://127.0.0.1:${port}/`);
  expect(home.status).toBe(200);
  const bundle = /src="(\/assets\/[^"]+\.js)"/.exec(home.body.toString())?.[1];
  expect(bundle).toBeDefined();
  const asset = await httpGet(`http://127.0.0.1:${port}${bundle}`, { 'accept-encoding': 'gzip' });
  expect(asset.headers['content-encoding']).toBe('gzip');
  expect(asset.headers['cache-control']).toContain('immutable');

  // A running nginx is reloaded, not restarted.
  await page.getByRole('button', { name: 'Restart Nginx' }).click();
  await answerConfirmation(page, true);
  await expect(page.getByRole('status').filter({ hasText: 'restarted' })).toHaveText(
    'Nginx restarted successfully!',
  );
  await expect(state(page)).toHaveText('Running');

  // Restoring an earlier version: two saved versions now hold the live file, only the newest is Live.
  await page.getByLabel('Max body size').fill('128M');
  const versions = page.getByRole('list', { name: 'Saved versions' });
  const kept = await versions.getByRole('listitem').count();
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  // Wait for the list to hold the new version (the history keeps 20).
  await expect(versions.getByRole('listitem')).toHaveCount(Math.min(kept + 1, 20));
  await expect(page.getByLabel('Max body size')).toHaveValue('128M');
  await expect(versions.getByRole('listitem').nth(1)).not.toContainText('Live');
  await versions.getByRole('listitem').nth(1).getByRole('button').first().click();
  await page.getByRole('button', { name: 'Restore this version' }).click();
  expect(await answerConfirmation(page, true)).toContain('Restore this version?');
  await expect(page.getByLabel('Max body size')).toHaveValue('256M');
  await expect(versions.getByRole('listitem').first()).toContainText('restored an earlier version');
  await expect(versions.getByText('Live', { exact: true })).toHaveCount(1);
  await expect(versions.getByRole('listitem').first().getByText('Live', { exact: true })).toBeVisible();
});

test('after its master process is killed, the console names the leftover workers and Restart brings nginx back', async ({
  page,
}) => {
  const pidFile = path.join(nginxDir, 'logs', 'nginx.pid');
  const token = await adminToken();
  if ((await readPid(pidFile)) === null) await apiAs(token, 'POST', '/api/system/restart');
  const master = (await readPid(pidFile))!;
  const workers = await workerPids(master);
  process.kill(master, 'SIGKILL');
  await expect.poll(() => isNginxAlive(master)).toBe(false);

  await openNginx(page);
  await expect(state(page)).toHaveText('Error');
  await expect(page.getByText(/master process is gone/)).toBeVisible();
  // Counted: the workers serve on without their master.
  await expect(
    page.locator('dt', { hasText: 'Processes' }).locator('xpath=following-sibling::dd'),
  ).toHaveText(String(workers.length));

  await page.getByRole('button', { name: 'Restart Nginx' }).click();
  expect(await answerConfirmation(page, true)).toMatch(/leftover workers stopped/);
  await confirmPassword(page, ADMIN.password);
  await expect(page.getByRole('status').filter({ hasText: 'restarted' })).toHaveText(
    'Nginx restarted successfully!',
  );
  await expect(state(page)).toHaveText('Running');
  for (const pid of workers) expect(await isNginxAlive(pid)).toBe(false);
  // The site is back on the same port, served by the new master's workers only.
  expect((await httpGet(`http://127.0.0.1:${port}/`)).status).toBe(200);
  const fresh = (await readPid(pidFile))!;
  expect((await nginxProcessesUnder(nginxDir)).sort()).toEqual([fresh, ...(await workerPids(fresh))].sort());
});

test('a refused value is named and marked, and nothing changes', async ({ page }) => {
  await openNginx(page);
  const before = await apiAs<{ data: { maxBodySize: string } }>(
    await adminToken(),
    'GET',
    '/api/system/config',
  );
  await page.getByLabel('Max body size').fill('1G; include /etc/passwd');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await confirmPassword(page, ADMIN.password);
  await expect(page.getByRole('alert')).toHaveText(/^Failed to save: Max body size must be a whole number/);
  await expect(page.getByLabel('Max body size')).toHaveAttribute('aria-invalid', 'true');
  const after = await apiAs<{ data: { maxBodySize: string } }>(
    await adminToken(),
    'GET',
    '/api/system/config',
  );
  expect(after.data.maxBodySize).toBe(before.data.maxBodySize);
});

test('an administrator lists a second app instance; a repeated address is refused and marked', async ({
  page,
}) => {
  await openNginx(page);
  const own = page.getByLabel('Proxy pass', { exact: true });
  const first = await own.inputValue();
  const other = `http://127.0.0.1:${await freePort()}`;

  await page.getByRole('button', { name: 'Add address' }).click();
  // The new field takes the focus, and each address now has its own label and remove button.
  await expect(page.getByLabel('Proxy pass address 2')).toBeFocused();
  await page.keyboard.type(first);
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await confirmPassword(page, ADMIN.password);
  await expect(page.getByRole('alert')).toHaveText(`Failed to save: Proxy pass lists ${first} twice`);
  await expect(page.getByLabel('Proxy pass address 2')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Proxy pass address 1')).not.toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Proxy pass address 2').fill(other);
  await expect(page.getByLabel('Proxy pass address 2')).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Nginx configuration' })).toHaveText(
    'Nginx configuration saved successfully!',
  );
  const saved = await apiAs<{ data: { proxyPass: string } }>(await adminToken(), 'GET', '/api/system/config');
  expect(saved.data.proxyPass).toBe(`${first} ${other}`);

  // Back to one instance: the remove button names the address it removes.
  await page.getByRole('button', { name: `Remove ${other}` }).click();
  await expect(page.getByLabel('Proxy pass', { exact: true })).toHaveValue(first);
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  const proxyPass = async () =>
    (await apiAs<{ data: { proxyPass: string } }>(await adminToken(), 'GET', '/api/system/config')).data
      .proxyPass;
  await expect.poll(proxyPass).toBe(first);
});
