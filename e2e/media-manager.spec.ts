import { expect, type Page, test } from '@playwright/test';
import { E2E_BASE_URL } from './support/env';
import { solidPng } from './support/png';
import { adminToken, apiAs, openSignedIn } from './support/session';

const run = Date.now().toString(36);
const image = (name: string, colour: [number, number, number]) => ({
  name,
  mimeType: 'image/png',
  buffer: solidPng(64, 40, colour),
});

async function openMediaManager(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'Media Manager' }).click();
  await expect(page.getByRole('heading', { name: 'Media Manager', level: 1 })).toBeVisible();
}

async function libraryPaths(category: 'images' | 'videos'): Promise<string[]> {
  const { files } = await apiAs<{ files: Array<{ path: string }> }>(
    await adminToken(),
    'GET',
    `/api/media/files/${category}`,
  );
  return files.map((file) => file.path);
}

test('an administrator uploads images through the file chooser, sees them in the library and deletes one', async ({
  page,
}) => {
  await openMediaManager(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Drag and drop images here, or click to browse').click();
  await (await chooser).setFiles([
    image(`dawn-${run}.png`, [250, 140, 60]),
    image(`dusk-${run}.png`, [40, 60, 160]),
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') },
  ]);

  // The text file is refused with the spec's message; the two images are still queued.
  await expect(page.getByText('Invalid file types: notes.txt')).toBeVisible();
  const ready = page.getByRole('list', { name: 'Files ready for upload' });
  await expect(ready.getByRole('listitem')).toHaveCount(2);
  await expect(ready.getByText(`dawn-${run}.png`)).toBeVisible();
  await expect(ready.getByText('image/png').first()).toBeVisible();
  await expect(ready.locator('img')).toHaveCount(2);

  await page.getByRole('button', { name: 'Upload Files' }).click();
  await expect(page.getByText('Successfully uploaded 2 file(s) to image.')).toBeVisible();
  await expect(page.getByText('No files chosen yet.')).toBeVisible();

  const library = page.getByRole('list', { name: 'Images in the library' });
  const dawn = library.getByRole('listitem').filter({ hasText: `dawn-${run}.png` });
  await expect(dawn).toBeVisible();
  // The card shows the thumbnail the server makes in the background, named by the original's version.
  const thumbnail = dawn.locator('img');
  await expect(thumbnail).toHaveAttribute(
    'src',
    new RegExp(`^/media/\\.copies/image/dawn-${run}\\.png/[0-9a-f]{12}-thumb\\.webp$`),
  );
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  expect(await libraryPaths('images')).toEqual(
    expect.arrayContaining([`image/dawn-${run}.png`, `image/dusk-${run}.png`]),
  );

  await page.getByLabel(`dawn-${run}.png`).check();
  await page.getByRole('button', { name: 'Delete Selected (1)' }).click();
  // The console's own confirmation names what it destroys; Escape keeps the file.
  const question = page.getByRole('alertdialog', { name: 'Delete 1 file?' });
  await expect(question).toContainText(`dawn-${run}.png`);
  await expect(question).toContainText('cannot be undone');
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(library.getByLabel(`dawn-${run}.png`)).toBeVisible();
  await page.getByRole('button', { name: 'Delete Selected (1)' }).click();
  await page.getByRole('button', { name: 'Delete 1 file', exact: true }).click();
  await expect(page.getByText('Deleted 1 file(s).')).toBeVisible();
  await expect(library.getByLabel(`dawn-${run}.png`)).toHaveCount(0);
  await expect(library.getByLabel(`dusk-${run}.png`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete Selected (0)' })).toBeVisible();
  const paths = await libraryPaths('images');
  expect(paths).not.toContain(`image/dawn-${run}.png`);
  expect(paths).toContain(`image/dusk-${run}.png`);
});

test('each file shows its progress, and Upload Files is disabled while uploading', async ({ page }) => {
  await openMediaManager(page);
  // Hold the server's answer back so the in-flight state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/media/upload', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Drag and drop images here').setInputFiles([image(`slow-${run}.png`, [10, 200, 90])]);
  await page.getByRole('button', { name: 'Upload Files' }).click();
  await expect(page.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
  await expect(page.getByRole('progressbar', { name: `Uploading slow-${run}.png` })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Videos' })).toBeDisabled();
  release();
  await expect(page.getByText('Successfully uploaded 1 file(s) to image.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload Files' })).toBeEnabled();
});

test('the server refuses a file whose content is not what its name says, and says why', async ({ page }) => {
  await openMediaManager(page);
  await page
    .getByLabel('Drag and drop images here')
    .setInputFiles([
      { name: `fake-${run}.png`, mimeType: 'image/png', buffer: Buffer.from('<html>hi</html>') },
    ]);
  await page.getByRole('button', { name: 'Upload Files' }).click();
  // An error notice (role alert), which stays until dismissed.
  const message = page
    .getByRole('alert')
    .filter({ hasText: `Upload error: fake-${run}.png: its content is not a recognisable image file` });
  await expect(message).toBeVisible();
  expect(await libraryPaths('images')).not.toContain(`image/fake-${run}.png`);
});

test('switching media type clears pending files; empty actions explain themselves', async ({ page }) => {
  await openMediaManager(page);
  await page.getByRole('button', { name: 'Upload Files' }).click();
  await expect(page.getByText('No files to upload.')).toBeVisible();
  // Nothing selected: nothing to delete.
  await expect(page.getByRole('button', { name: 'Delete Selected (0)' })).toBeDisabled();

  await page.getByLabel('Drag and drop images here').setInputFiles([image(`pending-${run}.png`, [1, 2, 3])]);
  await expect(page.getByRole('button', { name: `Remove pending-${run}.png` })).toBeVisible();
  await page.getByRole('tab', { name: 'Videos' }).click();
  await expect(page.getByRole('tab', { name: 'Videos' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Drag and drop videos here, or click to browse')).toBeVisible();
  await expect(page.getByText('No files chosen yet.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Current Library: Videos' })).toBeVisible();

  await page.getByRole('tab', { name: 'Images' }).click();
  await page.getByLabel('Drag and drop images here').setInputFiles([image(`again-${run}.png`, [1, 2, 3])]);
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByText('No files chosen yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Hide Library' }).click();
  await expect(page.getByRole('heading', { name: /Current Library/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show Library' }).click();
  await expect(page.getByRole('heading', { name: /Current Library/ })).toBeVisible();

  await page.getByRole('button', { name: 'Scan Files' }).click();
  await expect(page.getByText(/^Scan complete: \d+ files found$/)).toBeVisible();
  await expect(page.getByTestId('last-scan')).toContainText('Last scan');
});

test('an uploaded SVG opened directly cannot run its script or read the sign-in token', async ({ page }) => {
  const name = `trap-${run}.svg`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="red"/><script>
    try { localStorage.setItem('svg-ran', localStorage.getItem('token') || 'no token'); } catch (e) {}
    document.documentElement.setAttribute('data-ran', 'yes');
  </script></svg>`;
  const form = new FormData();
  form.append('mediaType', 'image');
  form.append(
    'basePath',
    (await apiAs<{ basePath: string }>(await adminToken(), 'GET', '/api/media/last-scan')).basePath,
  );
  form.append('files', new Blob([svg], { type: 'image/svg+xml' }), name);
  const uploaded = await fetch(`${E2E_BASE_URL}/api/media/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await adminToken()}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);

  await openSignedIn(page, await adminToken(), '/');
  const response = await page.goto(`/media/image/${name}`);
  expect(response?.headers()['content-type']).toBe('image/svg+xml');
  expect(response?.headers()['content-security-policy']).toContain('sandbox');
  expect(await page.locator('svg').getAttribute('data-ran')).toBeNull();
  await page.goto('/');
  expect(await page.evaluate(() => localStorage.getItem('svg-ran'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});
