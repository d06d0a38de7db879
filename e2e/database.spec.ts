import path from 'node:path';
import type { DatabaseDetail } from '@common/schemas/database';
import { expect, type Page, test } from '@playwright/test';
import { freePort } from '../server/src/test/free-port';
import { type MongoStandIn, startMongoStandIn } from '../server/src/test/mongo-stand-in';
import { ADMIN, E2E_DATA_DIR } from './support/env';
import { adminToken, answerConfirmation, apiAs, confirmPassword, openSignedIn } from './support/session';

/** A MongoDB server on the real wire protocol (no MongoDB can be installed here), run by this spec. */
let mongo: MongoStandIn;
test.beforeAll(async () => {
  mongo = await startMongoStandIn({
    data: {
      shop: {
        orders: { docs: [{ _id: 'o1' }, { _id: 'o2' }, { _id: 'o3' }] },
        customers: { docs: [{ _id: 'c1' }, { _id: 'c2' }] },
      },
      archive: { old: { docs: [{ _id: 'x' }] } },
    },
  });
});
test.afterAll(() => mongo?.close());

async function openPanel(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'MongoDB' })
    .click();
  await expect(page.getByRole('heading', { name: 'MongoDB', level: 1 })).toBeVisible();
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Connection Settings' }).click();
  await expect(page.getByLabel('Host')).toBeVisible();
}

test('the panel shows the live store, its statistics, and leads to the explorer', async ({ page }) => {
  await openPanel(page);
  const status = page.getByTestId('database-status');
  await expect(status).toContainText(
    new RegExp(
      `Connected: SQLite 3\\.\\d+\\.\\d+ at ${path.join(E2E_DATA_DIR, 'db', 'site.sqlite').replaceAll('/', '\\/')}`,
    ),
  );
  await expect(status).toContainText('Store:SQLite (embedded)');
  await expect(status).toContainText('Database:members');
  await expect(status).toContainText(/Uptime:\d+\.\d hours/);

  const card = page.getByRole('listitem', { name: 'Database members' });
  await expect(card).toContainText(/\d+ collections/);
  await expect(card.getByText('Storage')).toBeHidden();
  await card.getByRole('button', { name: /members/ }).click();
  for (const label of ['Storage', 'Documents', 'Indexes', 'Average size']) {
    await expect(card.getByText(label, { exact: true })).toBeVisible();
  }
  await card.getByRole('button', { name: 'Explore Database' }).click();
  await expect(page).toHaveURL(/\/admin\/database\/members$/);
  await expect(page.getByRole('heading', { name: 'members' })).toBeVisible();
});

test('Test Connection reports an unreachable server, then a reachable one with its counts', async ({
  page,
}) => {
  await openPanel(page);
  await openSettings(page);
  await expect(page.getByLabel('Host')).toHaveValue('localhost');
  await expect(page.getByLabel('Port')).toHaveValue('27017');
  await expect(page.getByLabel('Connection Pool Size')).toHaveValue('10');
  await expect(page.getByLabel('Enable Authentication')).not.toBeChecked();
  await expect(page.getByLabel('Enable SSL/TLS')).not.toBeChecked();
  await page.getByLabel('Enable Authentication').check();
  await expect(page.getByLabel('Username')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await page.getByLabel('Enable Authentication').uncheck();

  await page.getByLabel('Host').fill('127.0.0.1');
  await page.getByLabel('Port').fill(String(await freePort()));
  await page.getByRole('button', { name: 'Test Connection' }).click();
  // Test Connection reaches any host: the password is asked first.
  await confirmPassword(page, ADMIN.password);
  const failure = page.getByRole('alert');
  await expect(failure).toHaveText(/^Connection test failed: Nothing is listening on 127\.0\.0\.1:\d+$/);
  // The driver's own words are one click away.
  await page.getByRole('button', { name: 'Details' }).click();
  await expect(page.getByText(/ECONNREFUSED 127\.0\.0\.1:\d+/)).toBeVisible();
  // An error stays until it is dismissed.
  await page
    .locator('[data-notice]')
    .filter({ hasText: 'Connection test failed' })
    .getByRole('button', { name: 'Dismiss notice' })
    .click();
  await expect(failure).toBeHidden();

  await page.getByLabel('Port').fill(String(mongo.port));
  await page.getByLabel('Database', { exact: true }).selectOption({ label: 'Another database…' });
  await page.getByLabel('Database', { exact: true }).fill('shop');
  await page.getByRole('button', { name: 'Test Connection' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Connection successful! Found 2 collections and 5 documents.',
  );
  // The list now offers the databases that server has.
  await page.getByRole('button', { name: 'Choose from the list' }).click();
  await expect(page.getByLabel('Database', { exact: true }).locator('option')).toContainText([
    'archive',
    'members',
    'shop',
  ]);
});

test('Save Configuration refuses a server that does not answer, and nothing changes', async ({ page }) => {
  await openPanel(page);
  await openSettings(page);
  await page.getByLabel('Host').fill('127.0.0.1');
  await page.getByLabel('Port').fill(String(await freePort()));
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await answerConfirmation(page, true);
  await confirmPassword(page, ADMIN.password);
  const failure = page.getByRole('alert');
  await expect(failure.getByText('Failed to save configuration', { exact: true })).toBeVisible({
    timeout: 10_000,
  });
  await expect(failure).toContainText(/Connection failed: Nothing is listening on 127\.0\.0\.1:\d+/);
  await expect(page.getByTestId('database-status')).toContainText('Connected: SQLite');
  const { config } = await apiAs<{ config: { host: string } }>(
    await adminToken(),
    'GET',
    '/api/admin/mongodb/config',
  );
  expect(config.host).toBe('localhost');
});

test('the explorer shows the stats, filters collections, and opens one with its indexes and redacted documents', async ({
  page,
}) => {
  const token = await adminToken();
  const { database } = await apiAs<{ database: DatabaseDetail }>(
    token,
    'GET',
    '/api/admin/mongodb/database/members/details',
  );
  await openSignedIn(page, token, '/admin/database/members');
  await expect(page.getByRole('heading', { name: 'members' })).toBeVisible();
  for (const label of ['Collections', 'Documents', 'Data Size', 'Indexes']) {
    await expect(page.getByRole('listitem', { name: label })).toBeVisible();
  }
  await expect(page.getByRole('listitem', { name: 'Collections' })).toContainText(
    String(database.collections.length),
  );
  await expect(page.getByRole('listitem', { name: 'Data Size' })).toContainText(
    /\d+(\.\d+)? (B|KB|MB|GB|TB)/,
  );

  const filter = page.getByPlaceholder('Filter collections by name…');
  // A card's name is its whole text, starting with the collection's name.
  const cards = page.getByRole('list', { name: 'Collection list' });
  const collectionCard = (name: string) => cards.getByRole('button', { name: new RegExp(`^${name} `) });
  await filter.fill('USE');
  await expect(cards.getByRole('button')).toHaveCount(1);
  const users = collectionCard('users');
  // _id, then each sortable column, the trigram search indexes, the reset token's and the e-mail change token's.
  const usersIndexes = database.collections.find((c) => c.name === 'users')!.indexes.length;
  expect(usersIndexes).toBeGreaterThanOrEqual(9);
  await expect(users).toContainText(`${usersIndexes} indexes`);
  // The card names the first three indexes and counts the rest; the dialog below lists them all.
  await expect(users).toContainText('_id_');
  await expect(users).toContainText(`+${usersIndexes - 3} more`);
  await filter.fill('no-such-collection');
  await expect(page.getByText('No collection matches.')).toBeVisible();
  await filter.fill('');

  await users.click();
  const modal = page.getByRole('dialog', { name: 'users' });
  await expect(modal).toBeVisible();
  for (const label of ['Documents', 'Size', 'Storage', 'Avg Size']) {
    await expect(modal.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(modal.getByRole('columnheader')).toHaveText(['Name', 'Keys', 'Unique', 'Sparse']);
  await expect(modal.getByRole('row', { name: /email_1/ })).toContainText('{"email":1}Yes');
  await expect(modal.getByRole('heading', { name: /total, showing first 20\)$/ })).toBeVisible();
  await expect(modal.getByText('Document 1', { exact: true })).toBeVisible();
  await expect(modal.getByText(/_id: [0-9a-f]{24}/).first()).toBeVisible();
  await expect(modal.locator('pre').first()).toContainText('"password": "[redacted]"');
  await expect(modal).not.toContainText('$argon2');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // A collection with nothing in it says so (present when this spec runs before the others write one).
  const empty = database.collections.find((c) => c.count === 0);
  test.skip(!empty, 'every collection holds documents in this run');
  await collectionCard(empty!.name).click();
  await expect(page.getByText('No documents found in this collection')).toBeVisible();
});

test('the explorer says plainly when a database does not exist', async ({ page }) => {
  await openSignedIn(page, await adminToken(), '/admin/database/nope');
  await expect(page.getByRole('alert')).toHaveText('Database "nope" was not found.');
  await page.getByRole('link', { name: '← Back to dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('the panel works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'MongoDB' })
    .click();
  await expect(page.getByTestId('database-status')).toContainText('Connected: SQLite');
  await openSettings(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
