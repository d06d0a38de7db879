import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtures } from '../../test/media-fixtures';
import { makeMediaFolder } from '../../test/media-folder';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let base: string;
let outside: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  base = await makeMediaFolder(t.dataDir, {
    'image/one.png': fixtures.png(),
    'image/two.jpg': fixtures.jpeg(),
    'video/clip.mp4': fixtures.mp4(),
  });
  // Files that must survive every attempt below: beside the library, and outside DATA_DIR.
  await writeFile(path.join(t.dataDir, 'secret.jpg'), 'inside DATA_DIR, outside the library');
  outside = await mkdtemp(path.join(tmpdir(), 'outside-'));
  await writeFile(path.join(outside, 'victim.jpg'), 'outside everything');
});
afterEach(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const remove = (paths: unknown, basePath: string = base) =>
  t.app.inject({
    method: 'POST',
    url: '/api/media/delete',
    payload: { basePath, paths },
    headers: bearer(admin),
  });

async function survivors(): Promise<string[]> {
  const inLibrary = await readdir(base, { recursive: true });
  const kept = [
    await readFile(path.join(t.dataDir, 'secret.jpg'), 'utf8'),
    await readFile(path.join(outside, 'victim.jpg'), 'utf8'),
  ];
  expect(kept).toEqual(['inside DATA_DIR, outside the library', 'outside everything']);
  return inLibrary.filter((p) => /\./.test(p)).sort();
}

describe('deleting media', () => {
  it('deletes the selected files and says how many', async () => {
    const response = await remove(['image/one.png', 'video/clip.mp4']);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Deleted 2 file(s).',
      summary: { deleted: 2, failed: [] },
    });
    expect(await survivors()).toEqual(['image/two.jpg']);
  });

  it('reports files that are already gone, and deletes the rest', async () => {
    const response = await remove(['image/one.png', 'image/gone.png']);
    expect(response.json().summary).toEqual({
      deleted: 1,
      failed: [{ path: 'image/gone.png', reason: 'not found' }],
    });
    const none = await remove(['image/gone.png']);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('Nothing was deleted: image/gone.png (not found)');
  });

  it('refuses the whole request when any path could lead out of the library', async () => {
    const attempts = [
      '../secret.jpg',
      'image/../../secret.jpg',
      'image/../two.jpg',
      '/etc/passwd',
      path.join(t.dataDir, 'secret.jpg'),
      'image\\..\\..\\secret.jpg',
      'image/..',
      'image/',
      'image',
      'image/sub/one.png',
      './image/one.png',
      'image/one.png\u0000.jpg',
      'documents/one.png',
      'image/.upload-x.part',
    ];
    for (const attempt of attempts) {
      const response = await remove(['image/one.png', attempt]);
      expect(response.statusCode, attempt).toBe(400);
      expect(response.json().message, attempt).toContain('Nothing was deleted');
    }
    expect(await survivors()).toEqual(['image/one.png', 'image/two.jpg', 'video/clip.mp4']);
  });

  it('treats encoded forms as the literal names they are, which do not exist', async () => {
    const response = await remove(['image/%2e%2e%2f%2e%2e%2fsecret.jpg', 'image/x%2F..%2F..%2Fsecret.jpg']);
    expect(response.statusCode).toBe(404);
    expect(await survivors()).toEqual(['image/one.png', 'image/two.jpg', 'video/clip.mp4']);
  });

  it('never deletes through a link, whether the file or its folder is the link', async () => {
    await symlink(path.join(outside, 'victim.jpg'), path.join(base, 'image', 'link.jpg'));
    const file = await remove(['image/link.jpg']);
    expect(file.statusCode).toBe(400);
    expect(file.json().message).toBe('Nothing was deleted: image/link.jpg (not a regular file)');

    await rm(path.join(base, 'video'), { recursive: true });
    await symlink(outside, path.join(base, 'video'));
    await writeFile(path.join(outside, 'film.mp4'), fixtures.mp4());
    const folder = await remove(['video/film.mp4']);
    expect(folder.statusCode).toBe(400);
    expect(folder.json().message).toBe('Nothing was deleted: video/film.mp4 (outside the library)');
    expect((await readdir(outside)).sort()).toEqual(['film.mp4', 'victim.jpg']);
  });

  it('refuses a base path outside the media roots', async () => {
    await writeFile(path.join(outside, 'image.jpg'), 'x');
    const response = await remove(['image/victim.jpg'], outside);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('must be inside an allowed media folder');
  });

  it('needs at least one path and a base path', async () => {
    expect((await remove([])).json().message).toBe('No files selected.');
    expect((await remove(['image/one.png'], '')).json().message).toBe(
      'Please set a base path in Background Manager first.',
    );
    expect((await remove('image/one.png')).statusCode).toBe(400);
    expect((await remove([{ $ne: null }])).statusCode).toBe(400);
    expect(await survivors()).toEqual(['image/one.png', 'image/two.jpg', 'video/clip.mp4']);
  });
});
