import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fixtures, multipart } from '../../test/media-fixtures';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
});
afterEach(() => t.close());

const publicImages = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/slider/public' })).json().data.images as string[];

it('an upload and a delete reach the public slideshow on its very next load', async () => {
  const before = await publicImages();
  const base = path.join(t.dataDir, 'media');
  const form = multipart({ mediaType: 'image', basePath: base }, [
    { name: 'dawn.png', content: fixtures.png() },
  ]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(admin) },
  });
  expect(uploaded.statusCode).toBe(200);
  expect(await publicImages()).toEqual(['/media/image/dawn.png']);
  expect(before).not.toContain('/media/image/dawn.png');

  const deleted = await t.app.inject({
    method: 'POST',
    url: '/api/media/delete',
    payload: { basePath: base, paths: ['image/dawn.png'] },
    headers: bearer(admin),
  });
  expect(deleted.statusCode).toBe(200);
  expect(await publicImages()).not.toContain('/media/image/dawn.png');
});
