import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Playlist, PlaylistItem } from '@common/schemas/playlist';
import type { PublicSlidesData, SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/env';
import { adminToken, apiAs } from './support/session';

const run = Date.now().toString(36);
const PHOTO = `camera-${run}.jpg`;
const CLIP = `clip-${run}.mp4`;
const photoUrl = `/media/image/${PHOTO}`;
const clipUrl = `/media/video/${CLIP}`;

const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    return true;
  } catch {
    const message = 'ffmpeg is not on PATH: the poster tests are skipped (apt-get install -y ffmpeg).';
    if (process.env.CI) throw new Error(message);
    console.warn(message);
    return false;
  }
})();

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const media = path.join(E2E_DATA_DIR, 'media');
  await mkdir(path.join(media, 'image'), { recursive: true });
  await mkdir(path.join(media, 'video'), { recursive: true });
  // A camera-size photo: 4000 × 3000 with texture, several MB.
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  await writeFile(
    path.join(media, 'image', PHOTO),
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  const items: PlaylistItem[] = [{ type: 'image', url: photoUrl }];
  if (hasFfmpeg) {
    // 1080p, as a camera films: wide enough for a phone-sized copy.
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=15'],
      ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      path.join(media, 'video', CLIP),
    ]);
    items.push({ type: 'video', url: clipUrl });
  }
  const token = await adminToken();
  await apiAs(token, 'POST', '/api/media/scan-files', {});
  const playlist = (
    await apiAs<{ data: Playlist }>(token, 'POST', '/api/playlists', { name: `Pictures ${run}`, items })
  ).data;
  const { data: config } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', {
    ...config,
    activePlaylist: playlist._id,
    cycleTime: 1500,
    transitionDuration: 200,
  });
  // The copies are made in the background after the scan: wait until the slides offer them.
  await expect
    .poll(
      async () => {
        const answer = await fetch(`${E2E_BASE_URL}/api/slider/public`);
        const { data } = (await answer.json()) as { data: PublicSlidesData };
        return data.slides.every((slide) => slide.srcset || (slide.poster && slide.copies));
      },
      { timeout: 60_000 },
    )
    .toBe(true);
});

// Leave the site as the other specs expect it: no active playlist, default timing.
test.afterAll(async () => {
  const token = await adminToken();
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', { ...data, ...SLIDESHOW_DEFAULTS, activePlaylist: null });
});

/** Every media address the page asks for, in order. */
function mediaRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/media/')) seen.push(decodeURIComponent(pathname));
  });
  return seen;
}

const activeSlide = (page: Page) => page.getByTestId('slideshow').locator('[data-active="true"] > *');

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });

  test('the slideshow downloads a copy sized for the screen, never the camera original', async ({ page }) => {
    const requests = mediaRequests(page);
    await page.goto('/');
    await expect(activeSlide(page)).toHaveAttribute('src', photoUrl, { timeout: 15_000 });
    const shown = await activeSlide(page).evaluate((img: HTMLImageElement) =>
      decodeURIComponent(new URL(img.currentSrc).pathname),
    );
    // 390 px at 3 device pixels each: the 1320 px copy, not 4000 px.
    expect(shown).toMatch(new RegExp(`^/media/\\.copies/image/${PHOTO}/[0-9a-f]{12}-1320\\.webp$`));
    expect(requests).toContain(shown);
    expect(requests).not.toContain(photoUrl);
  });

  test('the video plays from its copy sized for a phone, never the 1080p original', async ({ page }) => {
    test.skip(!hasFfmpeg, 'needs ffmpeg for the copy');
    const requests = mediaRequests(page);
    await page.goto('/');
    const copy = new RegExp(`^/media/\\.copies/video/${CLIP.replace('.', '\\.')}/[0-9a-f]{12}-1280\\.mp4$`);
    await expect(activeSlide(page)).toHaveAttribute('src', copy, { timeout: 15_000 });
    // It really plays: its frames advance in the browser.
    await expect
      .poll(() => activeSlide(page).evaluate((video: HTMLVideoElement) => video.currentTime))
      .toBeGreaterThan(0.2);
    expect(await activeSlide(page).evaluate((video: HTMLVideoElement) => video.videoWidth)).toBe(1280);
    expect(requests.filter((url) => url.startsWith('/media/video/'))).toEqual([]);
  });
});

test.describe('a course cover on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  let courseId = '';
  test.beforeAll(async () => {
    const token = await adminToken();
    const { data } = await apiAs<{ data: { id: string } }>(token, 'POST', '/api/admin/courses', {
      title: `Covered ${run}`,
    });
    courseId = data.id;
    await apiAs(token, 'PUT', `/api/admin/courses/${courseId}`, {
      slug: `covered-${run}`,
      coverUrl: photoUrl,
      access: 'public',
      published: true,
    });
  });
  test.afterAll(async () => {
    await apiAs(await adminToken(), 'DELETE', `/api/admin/courses/${courseId}`);
  });

  test('is a copy for the card and for the course page, never the camera original', async ({ page }) => {
    const requests = mediaRequests(page);
    const copy = new RegExp(`^/media/\\.copies/image/${PHOTO.replace('.', '\\.')}/[0-9a-f]{12}-\\d+\\.webp$`);
    const shown = (img: HTMLImageElement) => decodeURIComponent(new URL(img.currentSrc).pathname);
    await page.goto('/courses');
    const card = page
      .getByTestId('course-card')
      .filter({ hasText: `Covered ${run}` })
      .locator('img');
    await expect.poll(() => card.evaluate(shown)).toMatch(copy);
    await page.goto(`/courses/covered-${run}`);
    const cover = page.locator('article img').first();
    await expect.poll(() => cover.evaluate(shown)).toMatch(copy);
    expect(requests).not.toContain(photoUrl);
  });
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a video shows as its poster and not a byte of it is requested', async ({ page }) => {
    test.skip(!hasFfmpeg, 'needs ffmpeg for the poster');
    const requests = mediaRequests(page);
    await page.goto('/');
    const poster = new RegExp(
      `^/media/\\.copies/video/${CLIP.replace('.', '\\.')}/[0-9a-f]{12}-\\d+\\.webp$`,
    );
    // The photo first, then the clip as its poster, for a whole cycle: then round again.
    await expect(activeSlide(page)).toHaveAttribute('src', photoUrl, { timeout: 15_000 });
    await expect(activeSlide(page)).toHaveAttribute('src', poster, { timeout: 5_000 });
    await expect(activeSlide(page)).toHaveAttribute('src', photoUrl, { timeout: 5_000 });
    expect(requests.some((url) => poster.test(url))).toBe(true);
    expect(requests.filter((url) => url.startsWith('/media/video/'))).toEqual([]);
    await expect(page.getByTestId('slideshow').locator('video')).toHaveCount(0);
  });
});

test.describe('on a 1080p screen', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('without reduced motion the same video plays as it is, fetched only once it is next', async ({
    page,
  }) => {
    test.skip(!hasFfmpeg, 'needs ffmpeg for the poster');
    const requests = mediaRequests(page);
    const ranges: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === clipUrl)
        ranges.push(response.headers()['content-range'] ?? '');
    });
    await page.goto('/');
    await expect(activeSlide(page)).toHaveAttribute('src', photoUrl, { timeout: 15_000 });
    await expect(page.getByTestId('slideshow').locator('video')).toHaveAttribute('src', clipUrl);
    await expect(activeSlide(page)).toHaveAttribute('src', clipUrl, { timeout: 6_000 });
    expect(requests).toContain(clipUrl);
    // It came 512 KB at a time (a sixth of the 3 s clip each), and it plays on to the end.
    expect(ranges[0]).toMatch(/^bytes 0-524287\/\d+$/);
    await expect
      .poll(() => activeSlide(page).evaluate((video: HTMLVideoElement) => video.currentTime), {
        timeout: 8_000,
      })
      .toBeGreaterThan(2);
  });
});
