import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import type { SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support/courses';
import { E2E_DATA_DIR } from './support/env';
import { solidPng } from './support/png';
import { adminToken, apiAs, openSignedIn, registerMember } from './support/session';

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const COVER = `cover-${run}.png`;
const LESSON_PICTURE = `posture-${run}.png`;
const TITLE = `Evening Stretch ${run}`;
const SLUG = `evening-stretch-${run}`;

test.beforeAll(async () => {
  const folder = path.join(E2E_DATA_DIR, 'media', 'image');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, COVER), solidPng(64, 36, [220, 30, 30]));
  await writeFile(path.join(folder, LESSON_PICTURE), solidPng(64, 36, [30, 220, 30]));
  const token = await adminToken();
  let course = (await apiAs<{ data: AdminCourse }>(token, 'POST', '/api/admin/courses', { title: TITLE }))
    .data;
  course = (
    await apiAs<{ data: AdminCourse }>(token, 'POST', `/api/admin/courses/${course.id}/sections`, {
      title: 'Week 1',
    })
  ).data;
  const { lesson } = (
    await apiAs<{ data: { lesson: AdminLesson } }>(
      token,
      'POST',
      `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
      { title: 'Posture' },
    )
  ).data;
  await apiAs(token, 'PUT', `/api/admin/courses/${course.id}/lessons/${lesson.id}`, {
    markdown: `Stand like this:\n\n![Standing](/media/image/${LESSON_PICTURE})`,
  });
  await apiAs(token, 'PUT', `/api/admin/courses/${course.id}`, {
    slug: SLUG,
    coverUrl: `/media/image/${COVER}`,
    access: 'paid',
    published: true,
  });
  // A quick slideshow, playing the whole library (no active playlist).
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', {
    ...data,
    activePlaylist: null,
    cycleTime: 1000,
    transitionDuration: 300,
  });
});

test.afterAll(async () => {
  const token = await adminToken();
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', { ...data, ...SLIDESHOW_DEFAULTS, activePlaylist: null });
});

const visibleSlide = (page: Page) =>
  page
    .getByTestId('slideshow')
    .locator('[data-active="true"] img')
    .getAttribute('src', { timeout: 500 })
    .catch(() => null);

test('the home page’s background never shows a course’s cover or a lesson’s picture', async ({ page }) => {
  test.setTimeout(90_000);
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/slider/public'));
  await page.goto('/');
  const { data } = (await (await answer).json()) as { data: { slides: Array<{ src: string }> } };
  const listed = data.slides.map((slide) => slide.src);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.join(' ')).not.toContain(COVER);
  expect(listed.join(' ')).not.toContain(LESSON_PICTURE);
  // Every slide once round, and one more: none is the course's.
  const seen = new Set<string>();
  const deadline = Date.now() + (listed.length + 2) * 1300;
  while (Date.now() < deadline) {
    const src = await visibleSlide(page);
    if (src) seen.add(src);
    await page.waitForTimeout(200);
  }
  expect(seen.size).toBeGreaterThan(0);
  for (const src of seen) {
    expect(src).not.toContain(COVER);
    expect(src).not.toContain(LESSON_PICTURE);
  }
});

test('deleting a course’s picture from the library names the course and lesson, and asks again', async ({
  page,
}) => {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'Media Manager' }).click();
  await expect(page.getByRole('heading', { name: 'Media Manager', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Scan Files' }).click();
  const library = page.getByRole('list', { name: 'Images in the library' });
  await page.getByLabel(LESSON_PICTURE).check();
  await page.getByRole('button', { name: 'Delete Selected (1)' }).click();
  await page.getByRole('button', { name: 'Delete 1 file', exact: true }).click();
  const question = page.getByRole('alertdialog', { name: 'Used by a course' });
  await expect(question).toContainText(`the lesson “Posture” of the course “${TITLE}”`);
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(library.getByLabel(LESSON_PICTURE)).toBeVisible();
  // Told, the owner deletes it anyway.
  await page.getByRole('button', { name: 'Delete Selected (1)' }).click();
  await page.getByRole('button', { name: 'Delete 1 file', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: 'Used by a course' })
    .getByRole('button', { name: 'Delete anyway' })
    .click();
  await expect(page.getByText('Deleted 1 file(s).')).toBeVisible();
  await expect(library.getByLabel(LESSON_PICTURE)).toHaveCount(0);
});

/** Whether the page's picture has loaded (a refused or missing one has no width). */
const loaded = (page: Page, alt: string) =>
  page.getByAltText(alt).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('a paid lesson’s picture shows to the paid member, and its address gets a visitor nothing; the cover shows to all', async ({
  page,
  browser,
}) => {
  const member = await registerMember('paid');
  const admin = await adminToken();
  const found = await apiAs<{ data: Array<{ _id: string }> }>(
    admin,
    'GET',
    `/api/admin/users?search=${encodeURIComponent(member.email)}`,
  );
  await apiAs(admin, 'PUT', `/api/admin/users/${found.data[0]!._id}`, { membershipTier: 'paid' });
  await openSignedIn(page, await signIn(member.email, member.password), `/courses/${SLUG}`);
  await page.getByRole('link', { name: 'Start: Posture' }).click();
  await expect(page.getByRole('heading', { name: 'Posture', level: 1 })).toBeVisible();
  const picture = page.getByAltText('Standing');
  await expect(picture).toBeVisible();
  await expect.poll(() => loaded(page, 'Standing')).toBe(true);
  const src = (await picture.getAttribute('src'))!;
  expect(src).toMatch(/^\/lesson-files\/pictures\//);
  expect(src).not.toContain(LESSON_PICTURE);

  // A visitor's browser: the course's card shows its cover, the lesson picture's address nothing.
  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/courses');
  const card = other.getByTestId('course-card').filter({ hasText: TITLE });
  await expect(card.locator('img').first()).toBeVisible();
  await expect
    .poll(() =>
      card
        .locator('img')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  expect((await other.request.get(src)).status()).toBe(403);
  await visitor.close();
});
