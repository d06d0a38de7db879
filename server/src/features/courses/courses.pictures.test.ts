import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdminCourse, AdminLesson, LessonView } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { adminApi, member } from '../../test/courses-kit';
import { fixtures, multipart } from '../../test/media-fixtures';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';
import type { CourseDoc, LessonBodyDoc } from './courses.repository';
import { renderMarkdown } from './markdown';

let t: TestApp;
let admin: string;
let base: string;
let courseId: string;
let lessonId: string;

async function uploadPicture(name: string): Promise<void> {
  const form = multipart({ mediaType: 'image', basePath: base }, [{ name, content: fixtures.png() }]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(admin) },
  });
  expect(uploaded.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await member(t, { role: 'admin' })).token;
  base = path.join(t.dataDir, 'media');
  for (const name of ['cover.png', 'breath.png', 'scenery.png']) await uploadPicture(name);
  const call = adminApi(t, admin);
  let course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Quiet Mornings' });
  course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, { title: 'Week 1' });
  const { lesson } = await call<{ lesson: AdminLesson }>(
    'POST',
    `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
    { title: 'Breathing' },
  );
  courseId = course.id;
  lessonId = lesson.id;
  await call('PUT', `/api/admin/courses/${course.id}/lessons/${lesson.id}`, {
    markdown: 'Sit like this:\n\n![Sitting](/media/image/breath.png)',
  });
  await call('PUT', `/api/admin/courses/${course.id}`, {
    coverUrl: '/media/image/cover.png',
    access: 'paid',
    published: true,
  });
}, 60_000);
afterAll(() => t.close());

const deletePictures = (paths: string[], confirmCourseUse?: boolean) =>
  t.app.inject({
    method: 'POST',
    url: '/api/media/delete',
    payload: { basePath: base, paths, ...(confirmCourseUse === undefined ? {} : { confirmCourseUse }) },
    headers: bearer(admin),
  });

describe('a course’s pictures', () => {
  it('never play in the slideshow: neither the cover nor a lesson’s picture', async () => {
    const slides = (await t.app.inject({ url: '/api/slider/public' })).json().data;
    expect(slides.images).toEqual(['/media/image/scenery.png']);
    expect(JSON.stringify(slides)).not.toMatch(/cover\.png|breath\.png/);
  });

  it('never play in the slideshow from a playlist that lists them either', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: bearer(admin),
      payload: {
        name: 'Everything',
        items: ['cover.png', 'scenery.png', 'breath.png'].map((name) => ({
          type: 'image',
          url: `/media/image/${name}`,
        })),
      },
    });
    expect(created.statusCode).toBe(201);
    const config = (await t.app.inject({ url: '/api/slider/config', headers: bearer(admin) })).json().data;
    const activate = (activePlaylist: string | null) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/slider/config',
        headers: bearer(admin),
        payload: { ...config, activePlaylist },
      });
    expect((await activate(created.json().data._id)).statusCode).toBe(200);
    const slides = (await t.app.inject({ url: '/api/slider/public' })).json().data;
    expect(slides.images).toEqual(['/media/image/scenery.png']);
    expect((await activate(null)).statusCode).toBe(200);
  });

  it('are not deleted from the library without a confirmation that names the course and lesson', async () => {
    const refused = await deletePictures(['image/scenery.png', 'image/breath.png']);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, code: 'PICTURE_IN_COURSE' });
    expect(refused.json().message).toBe(
      'Still used by a course: image/breath.png is shown by the lesson “Breathing” of the course “Quiet Mornings”. Delete anyway? The course keeps its own copy.',
    );
    // Nothing was deleted, not even the picture no course uses.
    for (const name of ['scenery.png', 'breath.png'])
      expect((await t.app.inject({ url: `/media/image/${name}` })).statusCode).toBe(200);
    const cover = await deletePictures(['image/cover.png']);
    expect(cover.json().message).toContain(
      'image/cover.png is shown by the cover of the course “Quiet Mornings”',
    );

    const confirmed = await deletePictures(['image/breath.png'], true);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().summary).toEqual({ deleted: 1, failed: [] });
    expect((await t.app.inject({ url: '/media/image/breath.png' })).statusCode).toBe(404);
    expect((await deletePictures(['image/scenery.png'])).statusCode).toBe(200);
  });
});

/** The lesson answer for `token` (or a visitor), and the browser cookie it sets. */
async function openLesson(token?: string): Promise<{ view: LessonView; cookie: string }> {
  const response = await t.app.inject({
    url: `/api/courses/quiet-mornings/lessons/${lessonId}`,
    headers: token ? bearer(token) : {},
  });
  expect(response.statusCode).toBe(200);
  const cookie = String(response.headers['set-cookie'] ?? '').split(';')[0]!;
  return { view: response.json().data as LessonView, cookie };
}

const srcOf = (html: string) => /<img src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');

describe('a paid lesson’s pictures', () => {
  it('reach only the members who may open the lesson, through its signed links', async () => {
    const paid = await member(t, { tier: 'paid' });
    const { view, cookie } = await openLesson(paid.token);
    const src = srcOf(view.html)!;
    expect(src).toMatch(/^\/lesson-files\/pictures\/[0-9a-f]{24}\/[0-9a-f]{32}\.png\?h=/);
    expect(view.html).not.toContain('/media/');
    const shown = await t.app.inject({ url: src, headers: { cookie } });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.headers['cache-control']).toBe('private, no-store');
    expect(shown.rawPayload.equals(fixtures.png())).toBe(true);

    // A visitor sees the lesson locked, and its picture's address gets them nothing.
    expect((await openLesson()).view).toMatchObject({ lock: { reason: 'upgrade' }, html: '' });
    expect((await t.app.inject({ url: src })).statusCode).toBe(403);
    const free = await member(t, { tier: 'free' });
    const freeCookie = (await openLesson(free.token)).cookie;
    expect((await t.app.inject({ url: src, headers: { cookie: freeCookie } })).statusCode).toBe(403);
    // Nor is it at the course's public address, where only the cover is.
    const stored = src.split('?')[0]!.split('/').pop()!;
    expect((await t.app.inject({ url: `/course-pictures/${courseId}/${stored}` })).statusCode).toBe(404);
  });

  it('is kept with the course: the owner’s text names the course’s copy, which outlives the library’s', async () => {
    const lesson = await adminApi(t, admin)<AdminLesson>(
      'GET',
      `/api/admin/courses/${courseId}/lessons/${lessonId}`,
    );
    expect(lesson.markdown).toMatch(
      new RegExp(`^Sit like this:\\n\\n!\\[Sitting\\]\\(/course-pictures/${courseId}/[0-9a-f]{32}\\.png\\)$`),
    );
  });

  it('shows in the owner’s live preview of the lesson text, through a link signed for their browser', async () => {
    const { markdown } = await adminApi(t, admin)<AdminLesson>(
      'GET',
      `/api/admin/courses/${courseId}/lessons/${lessonId}`,
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/courses/markdown-preview',
      headers: bearer(admin),
      payload: { markdown, lessonId },
    });
    const src = srcOf(response.json().data.html)!;
    expect(src).toMatch(new RegExp(`^/lesson-files/pictures/${lessonId}/[0-9a-f]{32}\\.png\\?h=`));
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ url: src, headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: src })).statusCode).toBe(403);
  });

  it('has a cover anyone may see, as the catalogue shows it', async () => {
    const [card] = (await t.app.inject({ url: '/api/courses' })).json().data;
    expect(card.coverUrl).toMatch(new RegExp(`^/course-pictures/${courseId}/[0-9a-f]{32}\\.png$`));
    const cover = await t.app.inject({ url: card.coverUrl });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
  });
});

describe('courses written before their pictures lived with them', () => {
  /** A start of the app on the same store and data folder, as an upgrade's first start. */
  async function start(): Promise<void> {
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' }),
      store: t.store,
    });
    await app.ready();
    await app.close();
  }

  it('get their pictures moved at start, once, with nothing lost', async () => {
    await uploadPicture('old-cover.png');
    await uploadPicture('old-step.png');
    const call = adminApi(t, admin);
    let course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Old Course' });
    course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, { title: 'One' });
    const { lesson } = await call<{ lesson: AdminLesson }>(
      'POST',
      `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
      { title: 'Steps' },
    );
    // As an older version stored them: the library's addresses.
    const courses = t.store.collection<CourseDoc>('courses');
    const bodies = t.store.collection<LessonBodyDoc>('course_lesson_bodies');
    const markdown = 'First:\n\n![Step](/media/image/old-step.png)\n\n![Gone](/media/image/never-was.png)';
    await courses.updateById(course.id, { coverUrl: '/media/image/old-cover.png' });
    await bodies.insertMany([{ _id: lesson.id, markdown, html: await renderMarkdown(markdown) }]);

    await start();
    const moved = (await courses.findById(course.id))!;
    const body = (await bodies.findById(lesson.id))!;
    const own = new RegExp(`/course-pictures/${course.id}/[0-9a-f]{32}\\.png`, 'g');
    expect(moved.coverUrl).toMatch(new RegExp(`^${own.source}$`));
    expect(body.markdown.match(own)).toHaveLength(1);
    // A picture the library no longer has stays as it was written.
    expect(body.markdown).toContain('![Gone](/media/image/never-was.png)');
    expect(body.markdown).not.toContain('old-step.png');
    expect(body.html).toMatch(new RegExp(`<img src="${own.source}" alt="Step" />`));
    const folder = path.join(t.dataDir, 'lessons', 'pictures', course.id);
    const files = (await readdir(folder)).sort();
    expect(files).toHaveLength(2);
    for (const file of files)
      expect((await readFile(path.join(folder, file))).equals(fixtures.png())).toBe(true);
    // The library keeps its files.
    for (const name of ['old-cover.png', 'old-step.png'])
      expect((await t.app.inject({ url: `/media/image/${name}` })).statusCode).toBe(200);

    await start();
    expect(await courses.findById(course.id)).toEqual(moved);
    expect(await bodies.findById(lesson.id)).toEqual(body);
    expect((await readdir(folder)).sort()).toEqual(files);
  });
});
