import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Playlist } from '@common/schemas/playlist';
import type { SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { expect, type Page, test } from '@playwright/test';
import { E2E_DATA_DIR } from './support/env';
import { solidPng } from './support/png';
import { adminToken, answerConfirmation, apiAs, openSignedIn } from './support/session';

const run = Date.now().toString(36);
const names = ['a', 'b', 'c'].map((letter) => `bg-${run}-${letter}.png`);
const url = (name: string) => `/media/image/${name}`;

test.beforeAll(async () => {
  const folder = path.join(E2E_DATA_DIR, 'media', 'image');
  await mkdir(folder, { recursive: true });
  const colours: Array<[number, number, number]> = [
    [200, 60, 40],
    [30, 90, 200],
    [40, 160, 80],
  ];
  await Promise.all(
    names.map((name, i) => writeFile(path.join(folder, name), solidPng(64, 36, colours[i]!))),
  );
});

// Leave the site as the other specs expect it: no active playlist, default overlay.
test.afterAll(async () => {
  const token = await adminToken();
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', { ...data, ...SLIDESHOW_DEFAULTS, activePlaylist: null });
});

async function openManager(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'Background Manager' }).click();
  await expect(page.getByRole('heading', { name: 'Background Manager' })).toBeVisible();
}

const visibleSlide = (page: Page) =>
  page
    .getByTestId('slideshow')
    .locator('[data-active="true"] img')
    .getAttribute('src', { timeout: 500 })
    .catch(() => null);
const overlayColour = (page: Page) =>
  page.getByTestId('slideshow-overlay').evaluate((el) => getComputedStyle(el).backgroundColor);
const stripOrder = (page: Page) =>
  page
    .locator('[aria-label="Playlist order"] [data-url]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-url')));

test('an administrator builds, reorders and activates a playlist; the landing page plays it under the saved overlay', async ({
  page,
}) => {
  await openManager(page);
  await page.getByRole('button', { name: 'Scan Files' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Scan complete: \d+ files found$/ }),
  ).toBeVisible();

  const images = page.getByRole('region', { name: 'Image Library' });
  for (const name of names) await images.getByRole('button', { name }).click();
  await expect(images.getByRole('button', { name: names[0] })).toHaveAttribute('aria-pressed', 'true');

  const playlistName = `Evening ${run}`;
  await page.getByLabel('New playlist name').fill(playlistName);
  await page.getByRole('button', { name: 'Add Playlist' }).click();
  const entry = page.getByRole('button', { name: new RegExp(`^${playlistName}`) });
  await expect(entry).toHaveAttribute('aria-pressed', 'true');
  await expect(entry).toContainText('3 items');
  await expect(page.getByRole('heading', { name: `Playlist Order: ${playlistName}` })).toBeVisible();
  expect(await stripOrder(page)).toEqual(names.map(url));

  // Drag the first item one place to the right, with the keyboard: lift, move, drop.
  await page.locator(`[data-url="${url(names[0]!)}"]`).focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(150);
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(400);
  await page.keyboard.press('Space');
  await expect.poll(() => stripOrder(page)).toEqual([names[1], names[0], names[2]].map((n) => url(n!)));

  await page.getByRole('button', { name: 'Save Selected Playlist' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Playlist saved successfully!' })).toBeVisible();
  const saved = (await apiAs<Playlist[]>(await adminToken(), 'GET', '/api/playlists')).find(
    (p) => p.name === playlistName,
  );
  expect(saved?.items.map((i) => i.url)).toEqual([names[1], names[0], names[2]].map((n) => url(n!)));

  await page.getByLabel('Active playlist').selectOption({ label: playlistName });
  await page.getByLabel('Cycle time (ms)').fill('1000');
  await page.getByLabel('Transition duration (ms)').fill('300');
  await page.getByLabel('Overlay opacity').fill('0.5');
  await page.getByLabel('Red').fill('10');
  await page.getByLabel('Green').fill('20');
  await page.getByLabel('Blue').fill('30');
  // Previewed live before saving: over the page, and on the slideshow's own overlay.
  await expect(page.getByTestId('overlay-preview')).toHaveCSS('background-color', 'rgba(10, 20, 30, 0.5)');
  await expect.poll(() => overlayColour(page)).toBe('rgba(10, 20, 30, 0.5)');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Configuration saved successfully!' }),
  ).toBeVisible();
  await expect(page.getByTestId('overlay-preview')).toHaveCount(0);

  await page.goto('/');
  await expect.poll(() => overlayColour(page)).toBe('rgba(10, 20, 30, 0.5)');
  // The slides follow the saved order and change after the one-second cycle.
  const order = [names[1], names[0], names[2]].map((n) => url(n!));
  await expect.poll(() => visibleSlide(page), { timeout: 5000, intervals: [100] }).toBe(order[0]);
  await expect.poll(() => visibleSlide(page), { timeout: 5000, intervals: [100] }).toBe(order[1]);
  await expect.poll(() => visibleSlide(page), { timeout: 5000, intervals: [100] }).toBe(order[2]);
  await expect.poll(() => visibleSlide(page), { timeout: 5000, intervals: [100] }).toBe(order[0]);
  // Only the current and the next item are ever in the page.
  expect(await page.getByTestId('slideshow').locator('img, video').count()).toBeLessThanOrEqual(2);
});

test('leaving with unsaved changes asks first; an unsaved overlay preview stays in the console and is dropped on leaving it', async ({
  page,
}) => {
  await openManager(page);
  const savedColour = await overlayColour(page);
  await page.getByLabel('Overlay opacity').fill('0.9');
  await page.getByLabel('Red').fill('255');
  await expect.poll(() => overlayColour(page)).toMatch(/^rgba\(255, \d+, \d+, 0\.9\)$/);
  // Leaving with unsaved settings asks first; staying keeps the work.
  await page.getByRole('button', { name: 'Logout' }).click();
  expect(await answerConfirmation(page, false)).toContain('unsaved changes: the slider settings');
  await expect(page.getByLabel('Overlay opacity')).toHaveValue('0.9');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Media Manager' })
    .click();
  await answerConfirmation(page, false);
  await expect(page.getByRole('heading', { name: 'Background Manager' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await answerConfirmation(page, true);
  await expect(page).toHaveURL(/\/$/);
  // The URL changes a moment before React renders the new route, so wait for that render.
  await expect.poll(() => overlayColour(page)).toBe(savedColour);
});

test('deleting a playlist asks first; playlist and settings mistakes are explained', async ({ page }) => {
  const token = await adminToken();
  const name = `Doomed ${run}`;
  await apiAs(token, 'POST', '/api/playlists', { name, items: [] });
  await openManager(page);
  const remove = page.getByRole('button', { name: `Delete playlist ${name}` });

  await remove.click();
  expect(await answerConfirmation(page, false)).toContain('Delete this playlist?');
  await expect(remove).toBeVisible();
  await remove.click();
  await answerConfirmation(page, true);
  await expect(remove).toHaveCount(0);

  // A blank name is ignored without a request.
  const before = (await apiAs<Playlist[]>(token, 'GET', '/api/playlists')).length;
  await page.getByLabel('New playlist name').fill('   ');
  await page.getByRole('button', { name: 'Add Playlist' }).click();
  await page.waitForTimeout(300);
  expect((await apiAs<Playlist[]>(token, 'GET', '/api/playlists')).length).toBe(before);

  const basePath = page.getByLabel('Base path for backgrounds');
  const original = await basePath.inputValue();
  await basePath.fill('');
  await page.getByRole('button', { name: 'Scan Files' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please set a base path first.' })).toBeVisible();
  await basePath.fill('/etc');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  // Errors stay until dismissed, so both are on screen now.
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /^Error: The base path must be inside an allowed media folder/ }),
  ).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(2);
  await basePath.fill(original);
});
