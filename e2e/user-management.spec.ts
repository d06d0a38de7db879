import { readFile } from 'node:fs/promises';
import type { PublicUser } from '@common/schemas/user';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './support/env';
import { adminToken, answerConfirmation, apiAs, confirmPassword, openSignedIn } from './support/session';

// Every user this file makes carries the run's tag, so a search for it shows only them.
const run = `um${Date.now().toString(36)}`;
let counter = 0;

async function makeUser(name: string, fields: Partial<PublicUser> = {}): Promise<PublicUser> {
  counter += 1;
  const { data } = await apiAs<{ data: PublicUser }>(await adminToken(), 'POST', '/api/admin/users', {
    name: `${run} ${name}`,
    email: `${run}-${counter}@e2e.test`,
    password: 'member-pass-1',
    ...fields,
  });
  return data;
}

async function openUsers(page: Page, search?: string): Promise<void> {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'User Management' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByText('Add, view, and manage all users on the platform.')).toBeVisible();
  if (search !== undefined) {
    const searched = page.waitForResponse(
      (r) => new URL(r.url()).searchParams.get('search') === search && r.status() === 200,
    );
    await page.getByPlaceholder('Search by name or email...').fill(search);
    await searched;
    await expect(page.locator('tbody tr td:first-child').first()).toContainText(search);
  }
}

/** The names in the table's rows, top to bottom. */
const rowNames = (page: Page) => page.locator('tbody tr td:first-child').allInnerTexts();
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  for (const name of ['Charlie', 'Alpha', 'Echo', 'Bravo', 'Delta']) await makeUser(name);
  // The unsearched list needs a second page; these fillers do not carry the run's tag.
  const { total } = await apiAs<{ total: number }>(await adminToken(), 'GET', '/api/admin/users');
  for (let i = total; i <= 10; i++) {
    await apiAs(await adminToken(), 'POST', '/api/admin/users', {
      name: `Filler ${i}`,
      email: `filler-${Date.now()}-${i}@e2e.test`,
      password: 'filler-pass-1',
    });
  }
});

test('search waits for typing to stop, matches name or e-mail in any case, and goes back to page 1', async ({
  page,
}) => {
  await openUsers(page);
  // Leave page 1 first, so that the reset to page 1 can be seen.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();

  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/admin/users' && url.searchParams.has('search'))
      searches.push(url.searchParams.get('search')!);
  });
  await page
    .getByPlaceholder('Search by name or email...')
    .pressSequentially(run.toUpperCase(), { delay: 40 });
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  expect(await rowNames(page)).toHaveLength(5);
  // One request for the finished text, none for the letters on the way.
  expect(searches).toEqual([run.toUpperCase()]);

  await page.getByPlaceholder('Search by name or email...').fill(`${run}-1@e2e`);
  await expect.poll(() => rowNames(page)).toEqual([`${run} Charlie`]);
});

test('headers sort both ways and show the direction arrow', async ({ page }) => {
  await openUsers(page, run);
  const nameHeader = page.getByRole('columnheader', { name: /Name/ });
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameHeader).toContainText('↑');
  await expect
    .poll(() => rowNames(page))
    .toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((n) => `${run} ${n}`));

  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(nameHeader).toContainText('↓');
  await expect
    .poll(() => rowNames(page))
    .toEqual(['Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha'].map((n) => `${run} ${n}`));

  await page.getByRole('button', { name: 'Email', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
});

test('Add User opens "Add New User" with the defaults, adds the user, and reports a duplicate', async ({
  page,
}) => {
  await openUsers(page, run);
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Role')).toHaveValue('user');
  await expect(dialog.getByLabel('Tier')).toHaveValue('free');
  await expect(dialog.getByLabel('Status')).toHaveValue('active');

  await dialog.getByLabel('Name').fill(`${run} Foxtrot`);
  await dialog.getByLabel('Email').fill(`${run}-fox@e2e.test`);
  await dialog.getByLabel('Password', { exact: true }).fill('foxtrot-pass');
  await dialog.getByLabel('Tier').selectOption('paid');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, `${run} Foxtrot`)).toContainText('paid');
  await expect(row(page, `${run} Foxtrot`)).toContainText(`${run}-fox@e2e.test`);

  await page.getByRole('button', { name: 'Add User' }).click();
  await dialog.getByLabel('Name').fill('Copy Cat');
  await dialog.getByLabel('Email').fill(`${run}-FOX@e2e.test`);
  await dialog.getByLabel('Password', { exact: true }).fill('copycat-pass');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Failed to add user: A user with this email already exists.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('adding an administrator asks for your password over the dialog; Cancel adds nobody', async ({
  page,
}) => {
  await openUsers(page, run);
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Name').fill(`${run} Juliett`);
  await dialog.getByLabel('Email').fill(`${run}-juliett@e2e.test`);
  await dialog.getByLabel('Password', { exact: true }).fill('juliett-pass');
  await dialog.getByLabel('Role').selectOption('admin');
  await dialog.getByRole('button', { name: 'Create User' }).click();

  const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Failed to add user: Not changed: your password was not confirmed.',
  );
  await expect(row(page, `${run} Juliett`)).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Create User' }).click();
  await confirmPassword(page, ADMIN.password);
  await expect(dialog).toBeHidden();
  await expect(row(page, `${run} Juliett`)).toContainText('admin');
});

test('a row is edited in place: it starts with an empty password, Save keeps changes, Cancel drops them', async ({
  page,
}) => {
  const golf = await makeUser('Golf');
  await openUsers(page, run);

  await page.getByRole('button', { name: `Edit ${run} Golf` }).click();
  const editing = page.getByRole('row', { name: `Editing ${run} Golf` });
  await expect(editing.getByLabel('New password')).toHaveValue('');
  await expect(editing.getByLabel('Name')).toHaveValue(`${run} Golf`);
  await editing.getByLabel('Name').fill(`${run} Golf Renamed`);
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, `${run} Golf`)).not.toContainText('Renamed');

  await page.getByRole('button', { name: `Edit ${run} Golf` }).click();
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes(golf._id));
  await editing.getByLabel('Name').fill(`${run} Golf Renamed`);
  await editing.getByLabel('Tier').selectOption('paid');
  await editing.getByLabel('Status').selectOption('suspended');
  await editing.getByRole('button', { name: 'Save' }).click();
  const sent = (await put).postDataJSON();
  expect(Object.keys(sent).sort()).toEqual(['email', 'membershipTier', 'name', 'role', 'status']);
  await expect(editing).toHaveCount(0);
  const renamed = row(page, `${run} Golf Renamed`);
  await expect(renamed).toContainText('paid');
  await expect(renamed).toContainText('suspended');

  // A failure keeps the row in edit mode and says why.
  await page.getByRole('button', { name: `Edit ${run} Golf Renamed` }).click();
  const again = page.getByRole('row', { name: `Editing ${run} Golf Renamed` });
  await again.getByLabel('Email').fill(`${run}-1@e2e.test`);
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Failed to update user: A user with this email already exists.',
  );
  await expect(again).toBeVisible();
});

test('Delete asks first; only a confirmed delete removes the row, and a failure says so', async ({
  page,
}) => {
  await makeUser('Hotel');
  await openUsers(page, run);

  await page.getByRole('button', { name: `Delete ${run} Hotel` }).click();
  const question = await answerConfirmation(page, false);
  await expect(row(page, `${run} Hotel`)).toBeVisible();
  expect(question).toContain('Are you sure you want to delete this user? This action cannot be undone.');
  expect(question).toContain(`${run} Hotel`);

  await page.route('**/api/admin/users/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Disk full"}' })
      : route.fallback(),
  );
  await page.getByRole('button', { name: `Delete ${run} Hotel` }).click();
  await answerConfirmation(page, true);
  await expect(page.getByRole('alert')).toContainText('Failed to delete user.');
  await expect(row(page, `${run} Hotel`)).toBeVisible();
  await page.unroute('**/api/admin/users/*');

  await page.getByRole('button', { name: `Delete ${run} Hotel` }).click();
  await answerConfirmation(page, true);
  await expect(row(page, `${run} Hotel`)).toHaveCount(0);
});

test('Previous and Next page through the list with "Page X of Y"', async ({ page }) => {
  for (let i = 0; i < 7; i++) await makeUser(`Page ${String(i).padStart(2, '0')}`);
  const total = (await apiAs<{ total: number }>(await adminToken(), 'GET', `/api/admin/users?search=${run}`))
    .total;
  expect(total).toBeGreaterThan(10);
  await openUsers(page, run);
  const pages = Math.ceil(total / 10);

  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  const first = await rowNames(page);
  expect(first).toHaveLength(10);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible();
  await expect.poll(() => rowNames(page)).not.toEqual(first);
  const second = await rowNames(page);
  expect(second.filter((name) => first.includes(name))).toEqual([]);
  expect(first.length + second.length).toBe(Math.min(total, 20));
  if (pages === 2) await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();
  await expect.poll(() => rowNames(page)).toEqual(first);
});

test('a failed list fetch leaves the table as it was', async ({ page }) => {
  await openUsers(page, run);
  const before = await rowNames(page);
  expect(before.length).toBeGreaterThan(0);
  await page.route(
    (url) => url.pathname === '/api/admin/users',
    (route) => route.fulfill({ status: 500, body: 'boom' }),
  );
  const failed = page.waitForResponse((r) => r.url().includes('/api/admin/users?') && r.status() === 500);
  await page.getByPlaceholder('Search by name or email...').fill(`${run} nothing-like-this`);
  await failed;
  await page.waitForTimeout(300);
  expect(await rowNames(page)).toEqual(before);
});

test('Export CSV downloads the searched, sorted list', async ({ page }) => {
  await openUsers(page, run);
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await file.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    '"Name","Email","Role","Tier","Status","Created","Tier source","Subscription status","Period end","Stripe customer","Courses bought"',
  );
  // Every cell is quoted; these names hold no comma or quote.
  const names = lines.slice(1).map((line) => line.split(',')[0]!.slice(1, -1));
  expect(names.every((name) => name.startsWith(run))).toBe(true);
  expect(names).toEqual([...names].sort());
  expect(names).toContain(`${run} Alpha`);
});

test('Joined column, page size, page number box, Password column only while editing, and the added user shown', async ({
  page,
}) => {
  await openUsers(page);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Joined' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Password' })).toHaveCount(0);
  // Newest first by default: the Joined dates never go up.
  const joined = await table
    .locator('tbody time')
    .evaluateAll((times) => times.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
  expect(joined).toEqual([...joined].sort((a, b) => b - a));

  await page.getByLabel('Per page').selectOption('25');
  await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(10);
  await page.getByLabel('Per page').selectOption('10');
  await expect(table.locator('tbody tr')).toHaveCount(10);
  await page.getByLabel('Go to page').fill('2');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();

  await page
    .getByRole('button', { name: /^Edit / })
    .first()
    .click();
  await expect(table.getByRole('columnheader', { name: 'Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(table.getByRole('columnheader', { name: 'Password' })).toHaveCount(0);

  // Sorted by Status on page 2, a new user would be anywhere: the list shows them first, highlighted.
  await table.getByRole('button', { name: 'Status' }).click();
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Name').fill(`${run} Juliet`);
  await dialog.getByLabel('Email').fill(`${run}-juliet@e2e.test`);
  await dialog.getByLabel('Password', { exact: true }).fill('juliet-pass');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Added ${run} Juliet (${run}-juliet@e2e.test).` }),
  ).toBeVisible();
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  const first = table.locator('tbody tr').first();
  await expect(first).toContainText(`${run} Juliet`);
  await expect(first).toHaveAttribute('aria-current', 'true');
});
