import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import type { Slide } from '@common/schemas/slideshow';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/courses-kit';
import { fixtures, multipart } from '../../../test/media-fixtures';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/test-app';
import { parseMediaPath } from '../media-library';
import { COPIES_FOLDER, type CopiesManifest, readCopies } from './layout';

let t: TestApp;
let admin: string;
let base: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  base = path.join(t.dataDir, 'media');
});
afterEach(() => t.close());

/** A real JPEG with a little texture, so its copies are real pictures too. */
function photo(width: number, height: number, colour = { r: 200, g: 120, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function upload(mediaType: string, name: string, content: Buffer) {
  const form = multipart({ mediaType, basePath: base }, [{ name, content }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(admin) },
  });
}

const scan = () =>
  t.app.inject({ method: 'POST', url: '/api/media/scan-files', payload: {}, headers: bearer(admin) });

/** The copies of `relative` as they are now on disk, waited for (they are made in the background). */
async function copiesOf(relative: string, expectKey?: (key: string) => boolean): Promise<CopiesManifest> {
  const media = parseMediaPath(relative)!;
  for (let i = 0; i < 300; i++) {
    const manifest = await readCopies(base, media);
    if (manifest && (!expectKey || expectKey(manifest.key))) return manifest;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no copies of ${relative} after 15 s`);
}

const folderOf = (relative: string) => path.join(base, COPIES_FOLDER, relative);
const publicSlides = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/slider/public' })).json().data.slides as Slide[];

describe('resized copies of pictures', () => {
  it('are made after an upload, in WebP at the screen widths and as a thumbnail, never wider than the original', async () => {
    const started = performance.now();
    const response = await upload('image', 'Wide Shot.jpg', await photo(2000, 1500));
    expect(response.statusCode).toBe(200);
    // The answer does not wait for the copies.
    expect(await readCopies(base, parseMediaPath('image/Wide-Shot.jpg')!)).toBeNull();
    const manifest = await copiesOf('image/Wide-Shot.jpg');
    expect(manifest).toMatchObject({
      width: 2000,
      height: 1500,
      widths: [480, 960, 1320, 2000],
      thumb: true,
    });
    expect(performance.now() - started).toBeLessThan(15_000);

    const files = (await readdir(folderOf('image/Wide-Shot.jpg'))).sort();
    expect(files).toEqual(
      [
        ...['480', '960', '1320', '2000', 'thumb'].map((w) => `${manifest.key}-${w}.webp`),
        `${manifest.key}.json`,
      ].sort(),
    );
    for (const width of manifest.widths) {
      const meta = await sharp(
        path.join(folderOf('image/Wide-Shot.jpg'), `${manifest.key}-${width}.webp`),
      ).metadata();
      expect(meta).toMatchObject({ format: 'webp', width, height: Math.round((width * 3) / 4) });
    }
    const thumb = await sharp(
      path.join(folderOf('image/Wide-Shot.jpg'), `${manifest.key}-thumb.webp`),
    ).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 400, height: 300 });
    // The original is untouched.
    expect((await stat(path.join(base, 'image', 'Wide-Shot.jpg'))).size).toBe(
      (await photo(2000, 1500)).length,
    );
  });

  it('are no wider than a small original, and a camera original is never among them', async () => {
    await upload(
      'image',
      'small.png',
      await sharp(await photo(300, 200))
        .png()
        .toBuffer(),
    );
    expect(await copiesOf('image/small.png')).toMatchObject({ widths: [300], thumb: true });
    const thumb = await sharp(
      path.join(folderOf('image/small.png'), `${(await copiesOf('image/small.png')).key}-thumb.webp`),
    ).metadata();
    expect(thumb.width).toBe(300);

    await upload('image', 'camera.jpg', await photo(4000, 3000));
    expect((await copiesOf('image/camera.jpg')).widths).toEqual([480, 960, 1320, 1920, 2560]);
  });

  it('are made again when the original changes, and the old ones go', async () => {
    await upload('image', 'sky.jpg', await photo(1000, 500));
    const first = await copiesOf('image/sky.jpg');
    // Replaced by hand (a new picture under the same name), then a scan.
    const file = path.join(base, 'image', 'sky.jpg');
    await writeFile(file, await photo(1200, 900, { r: 10, g: 20, b: 200 }));
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    expect((await scan()).statusCode).toBe(200);
    const second = await copiesOf('image/sky.jpg', (key) => key !== first.key);
    expect(second).toMatchObject({ width: 1200, height: 900, widths: [480, 960, 1200] });
    const names = await readdir(folderOf('image/sky.jpg'));
    expect(names.filter((name) => name.startsWith(first.key))).toEqual([]);
  });

  it('are deleted with their original', async () => {
    await upload('image', 'gone.jpg', await photo(800, 600));
    await copiesOf('image/gone.jpg');
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/media/delete',
      payload: { basePath: base, paths: ['image/gone.jpg'] },
      headers: bearer(admin),
    });
    expect(deleted.statusCode).toBe(200);
    await expect(stat(folderOf('image/gone.jpg'))).rejects.toThrow(/ENOENT/);
  });

  it('are made by a scan for files copied in by hand, and dropped for files removed by hand', async () => {
    await mkdir(path.join(base, 'image'), { recursive: true });
    await writeFile(path.join(base, 'image', 'by-hand.jpg'), await photo(640, 480));
    expect((await scan()).statusCode).toBe(200);
    expect(await copiesOf('image/by-hand.jpg')).toMatchObject({ widths: [480, 640] });

    await rm(path.join(base, 'image', 'by-hand.jpg'));
    expect((await scan()).json().discoveries.images).toBe(0);
    await expect(stat(folderOf('image/by-hand.jpg'))).rejects.toThrow(/ENOENT/);
    // The copies folder is no part of the library.
    const list = await t.app.inject({ method: 'GET', url: '/api/media/files', headers: bearer(admin) });
    expect(list.json().files).toEqual([]);
  });

  it('are not made for SVG and GIF, which are served as they are', async () => {
    await upload('image', 'logo.svg', fixtures.svg());
    await upload('image', 'spinner.gif', fixtures.gif());
    await upload('image', 'marker.jpg', await photo(600, 400));
    await copiesOf('image/marker.jpg'); // the queue has passed the other two by now
    await expect(stat(path.join(base, COPIES_FOLDER, 'image', 'logo.svg'))).rejects.toThrow(/ENOENT/);
    await expect(stat(path.join(base, COPIES_FOLDER, 'image', 'spinner.gif'))).rejects.toThrow(/ENOENT/);
    const slides = await publicSlides();
    expect(slides.find((s) => s.src === '/media/image/logo.svg')).toEqual({
      type: 'image',
      src: '/media/image/logo.svg',
    });
    expect(slides.find((s) => s.src === '/media/image/spinner.gif')).toEqual({
      type: 'image',
      src: '/media/image/spinner.gif',
    });
  });

  it('are served with their content type and a year of immutable caching; nothing else is served there', async () => {
    await upload('image', 'beach.jpg', await photo(1000, 750));
    const manifest = await copiesOf('image/beach.jpg');
    const url = `/media/${COPIES_FOLDER}/image/beach.jpg/${manifest.key}-480.webp`;
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(response.rawPayload).metadata()).width).toBe(480);
    for (const bad of [
      `/media/${COPIES_FOLDER}/image/beach.jpg/${manifest.key}.json`,
      `/media/${COPIES_FOLDER}/image/beach.jpg/.lock`,
      `/media/${COPIES_FOLDER}/image/beach.jpg/${manifest.key}-480.webp/x`,
      `/media/${COPIES_FOLDER}/image/..%2F..%2Fimage%2Fbeach.jpg/${manifest.key}-480.webp`,
      `/media/${COPIES_FOLDER}/documents/beach.jpg/${manifest.key}-480.webp`,
      `/media/${COPIES_FOLDER}/image/other.jpg/${manifest.key}-480.webp`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404);
    }
  });

  it('reach the public slides (srcset) and the file lists (thumbnail)', async () => {
    await upload('image', 'dawn.jpg', await photo(1600, 1200));
    const manifest = await copiesOf('image/dawn.jpg');
    const copy = (w: number | string) => `/media/${COPIES_FOLDER}/image/dawn.jpg/${manifest.key}-${w}.webp`;
    const slides = await publicSlides();
    expect(slides).toEqual([
      {
        type: 'image',
        src: '/media/image/dawn.jpg',
        srcset: `${copy(480)} 480w, ${copy(960)} 960w, ${copy(1320)} 1320w, ${copy(1600)} 1600w`,
      },
    ]);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/media/files/images',
      headers: bearer(admin),
    });
    expect(list.json().files).toEqual([
      expect.objectContaining({ path: 'image/dawn.jpg', thumbnail: copy('thumb') }),
    ]);
  });

  it('reach course covers: the catalogue and the course offer the cover’s copies; a lesson’s picture is the course’s own', async () => {
    await upload('image', 'cover.jpg', await photo(1600, 900));
    const call = adminApi(t, admin);
    let course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Calm mornings' });
    course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, { title: 'Start' });
    const { lesson } = await call<{ lesson: AdminLesson }>(
      'POST',
      `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
      { title: 'Breathe' },
    );
    await call('PUT', `/api/admin/courses/${course.id}/lessons/${lesson.id}`, {
      markdown:
        'Sit by a window:\n\n![The view at dawn](/media/image/cover.jpg)\n\n![Elsewhere](/favicon.svg)',
    });
    await call('PUT', `/api/admin/courses/${course.id}`, {
      slug: 'calm-mornings',
      coverUrl: '/media/image/cover.jpg',
      access: 'public',
      published: true,
    });
    const manifest = await copiesOf('image/cover.jpg');
    const copy = (w: number) => `/media/${COPIES_FOLDER}/image/cover.jpg/${manifest.key}-${w}.webp`;
    const srcset = `${copy(480)} 480w, ${copy(960)} 960w, ${copy(1320)} 1320w, ${copy(1600)} 1600w`;
    const visitor = (url: string) => t.app.inject({ method: 'GET', url }).then((r) => r.json().data);
    const [card] = await visitor('/api/courses');
    // The cover is the course's own copy, offered in its library original's resized copies.
    expect(card).toMatchObject({ coverSrcset: srcset });
    expect(card.coverUrl).toMatch(new RegExp(`^/course-pictures/${course.id}/[0-9a-f]{32}\\.jpg$`));
    expect(await visitor('/api/courses/calm-mornings')).toMatchObject({ coverSrcset: srcset });
    const { html } = await visitor(`/api/courses/calm-mornings/lessons/${lesson.id}`);
    // A lesson's picture is the course's own too, through its signed link: nothing of it under /media.
    expect(html).toMatch(
      new RegExp(
        `<img src="/lesson-files/pictures/${lesson.id}/[0-9a-f]{32}\\.jpg\\?h=-&amp;e=\\d+&amp;s=[\\w-]+" alt="The view at dawn" />`,
      ),
    );
    // A picture that is not the library's stays as it was written.
    expect(html).toContain('<img src="/favicon.svg" alt="Elsewhere" />');
  });
});
