import path from 'node:path';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, member } from '../../test/courses-kit';
import { fixtures, multipart } from '../../test/media-fixtures';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let base: string;

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
      'Still used by a course: image/breath.png is shown by the lesson “Breathing” of the course “Quiet Mornings”. Delete anyway? The course will show no picture there.',
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
