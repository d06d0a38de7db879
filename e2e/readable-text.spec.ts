import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import type { SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_DATA_DIR } from './support/env';
import { solidPng } from './support/png';
import { adminToken, apiAs } from './support/session';

/**
 * Text stays readable whatever picture plays: a pure-white slide, with no overlay at all, behind
 * every public page, and each piece of text measured against the pixels around it (WCAG's 4.5:1).
 */

// axe-core is injected as a script, which the site's own Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

const NEEDED = 4.5;
const WHITE = `white-${Date.now().toString(36)}.png`;
/** The public pages; a course's page and one of its lessons join them once made (beforeAll). */
const PAGES = [
  '/',
  '/courses',
  '/login',
  '/join',
  '/forgot-password',
  '/reset-password/some-token',
  '/terms',
  '/no/such/page',
];

test.beforeAll(async () => {
  const folder = path.join(E2E_DATA_DIR, 'media', 'image');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, WHITE), solidPng(320, 180, [255, 255, 255]));
  const token = await adminToken();
  const url = `/media/image/${WHITE}`;
  const created = await apiAs<{ _id?: string; data?: { _id: string } }>(token, 'POST', '/api/playlists', {
    name: `White ${WHITE}`,
    items: [{ type: 'image', url }],
    images: [url],
  });
  PAGES.push(...(await publishCourse(token)));
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', {
    ...data,
    activePlaylist: created.data?._id ?? created._id,
    overlayOpacity: 0,
    transitionDuration: 0,
    cycleTime: 3_600_000,
  });
});

/**
 * A public course with an open section and one that opens on a later day, so that its page shows
 * both; answers the addresses of its page and of its first lesson.
 */
async function publishCourse(token: string): Promise<string[]> {
  const slug = `readable-${Date.now().toString(36)}`;
  let course = (
    await apiAs<{ data: AdminCourse }>(token, 'POST', '/api/admin/courses', { title: 'Readable' })
  ).data;
  for (const title of ['Week 1', 'Week 2'])
    course = (
      await apiAs<{ data: AdminCourse }>(token, 'POST', `/api/admin/courses/${course.id}/sections`, { title })
    ).data;
  const lessons: AdminLesson[] = [];
  for (const section of course.sections)
    lessons.push(
      (
        await apiAs<{ data: { lesson: AdminLesson } }>(
          token,
          'POST',
          `/api/admin/courses/${course.id}/sections/${section.id}/lessons`,
          { title: `First of ${section.title}` },
        )
      ).data.lesson,
    );
  await apiAs(token, 'PUT', `/api/admin/courses/${course.id}/sections/${course.sections[1]!.id}`, {
    drip: { kind: 'date', date: '2099-12-05' },
  });
  await apiAs(token, 'PUT', `/api/admin/courses/${course.id}`, {
    slug,
    access: 'public',
    published: true,
  });
  return [`/courses/${slug}`, `/courses/${slug}/lessons/${lessons[0]!.id}`];
}

// Leave the site as the other specs expect it: no active playlist, default overlay.
test.afterAll(async () => {
  const token = await adminToken();
  const { data } = await apiAs<{ data: SlideshowSettings }>(token, 'GET', '/api/slider/config');
  await apiAs(token, 'PUT', '/api/slider/config', { ...data, ...SLIDESHOW_DEFAULTS, activePlaylist: null });
});

/** The page once the white slide fills the screen behind it. */
async function overWhite(page: Page, where: string): Promise<void> {
  await page.goto(where);
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  const slide = page.getByTestId('slideshow').locator(`[data-active="true"] img[src*="${WHITE}"]`);
  await expect(slide).toBeVisible();
  await expect
    .poll(() => slide.evaluate((img) => Number(getComputedStyle(img.closest('[data-slide-layer]')!).opacity)))
    .toBe(1);
}

interface TextBox {
  text: string;
  rgba: [number, number, number, number];
  rects: Array<{ x: number; y: number; width: number; height: number }>;
}

/** Every piece of visible text: its colour (with the opacity of what holds it) and the boxes of its lines. */
function visibleText(page: Page): Promise<TextBox[]> {
  return page.evaluate(() => {
    const found: TextBox[] = [];
    // Colours come as oklch() and the like: a canvas turns any of them into sRGB numbers.
    const pen = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const toRgba = (colour: string) => {
      pen.clearRect(0, 0, 1, 1);
      pen.fillStyle = colour;
      pen.fillRect(0, 0, 1, 1);
      return [...pen.getImageData(0, 0, 1, 1).data];
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.closest('[aria-hidden="true"], script, style'))
        continue;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      // Text for screen readers alone sits in a box of 1px, clipped.
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()]
        .filter((r) => r.width > 2 && r.height > 2)
        .map((r) => ({ x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height }));
      if (!rects.length) continue;
      const parts = toRgba(getComputedStyle(element).color);
      let opacity = parts[3]! / 255;
      for (let up: Element | null = element; up; up = up.parentElement)
        opacity *= Number(getComputedStyle(up).opacity);
      if (opacity === 0) continue;
      found.push({
        text: node.textContent.trim().slice(0, 40),
        rgba: [parts[0]!, parts[1]!, parts[2]!, opacity],
        rects,
      });
    }
    return found;
  });
}

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = (r: number, g: number, b: number) =>
  0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * The lowest contrast of each piece of text against the background around it: the page is
 * shot with every text made transparent, then each pixel around the text is compared with the
 * text's colour laid over it.
 */
async function lowestContrasts(page: Page): Promise<Array<{ text: string; contrast: number }>> {
  const boxes = await visibleText(page);
  await page.addStyleTag({
    content:
      '*, *::before, *::after, *::placeholder { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; caret-color: transparent !important; }',
  });
  const shot = await page.screenshot({ fullPage: true, animations: 'disabled' });
  const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const pad = 3;
  return boxes.map(({ text, rgba: [r, g, b, a], rects }) => {
    let lowest = Number.POSITIVE_INFINITY;
    for (const rect of rects) {
      const left = Math.max(0, Math.floor(rect.x) - pad);
      const right = Math.min(info.width - 1, Math.ceil(rect.x + rect.width) + pad);
      const top = Math.max(0, Math.floor(rect.y) - pad);
      const bottom = Math.min(info.height - 1, Math.ceil(rect.y + rect.height) + pad);
      for (let y = top; y <= bottom; y++)
        for (let x = left; x <= right; x++) {
          const i = (y * info.width + x) * 3;
          const [br, bg, bb] = [data[i]!, data[i + 1]!, data[i + 2]!];
          const seen = luminance(a * r + (1 - a) * br, a * g + (1 - a) * bg, a * b + (1 - a) * bb);
          lowest = Math.min(lowest, ratio(seen, luminance(br, bg, bb)));
        }
    }
    return { text, contrast: Math.round(lowest * 100) / 100 };
  });
}

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`over a white slide on a ${device}`, () => {
    test.use({ viewport });

    test('the home page keeps every text at 4.5:1 and has no serious accessibility violation', async ({
      page,
    }) => {
      await overWhite(page, '/');
      await expectNoSeriousViolations(page, `/ over a white slide (${device})`);
      const measured = await lowestContrasts(page);
      expect(measured.map((m) => m.text)).toEqual(expect.arrayContaining(['Sign In', 'Courses']));
      expect(measured.filter((m) => m.contrast < NEEDED)).toEqual([]);
    });

    test('every other public page keeps every text at 4.5:1', async ({ page }) => {
      test.setTimeout(90_000);
      const failing: Array<{ page: string; text: string; contrast: number }> = [];
      for (const where of PAGES.slice(1)) {
        await overWhite(page, where);
        for (const m of await lowestContrasts(page))
          if (m.contrast < NEEDED) failing.push({ page: where, ...m });
      }
      expect(failing).toEqual([]);
    });
  });
}
