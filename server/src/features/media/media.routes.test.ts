import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtures, multipart } from '../../test/media-fixtures';
import { makeMediaFolder } from '../../test/media-folder';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let base: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  base = await makeMediaFolder(t.dataDir, {
    'image/b-sunset.png': fixtures.png(),
    'image/a-dawn.jpg': fixtures.jpeg(),
    'image/notes.txt': 'not media',
    'image/.upload-123.part': 'half written',
    'video/clip.mp4': fixtures.mp4(),
    'audio/song.mp3': fixtures.mp3(),
  });
});
afterEach(() => t.close());

const get = (url: string, token = admin) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (url: string, payload: unknown, token = admin) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: bearer(token) });

describe('file lists', () => {
  it('lists images and videos of the configured base path, media files only, sorted by name', async () => {
    const images = await get('/api/media/files/images');
    expect(images.statusCode).toBe(200);
    expect(images.json().files).toEqual([
      { path: 'image/a-dawn.jpg', name: 'a-dawn.jpg', size: fixtures.jpeg().length, category: 'image' },
      { path: 'image/b-sunset.png', name: 'b-sunset.png', size: fixtures.png().length, category: 'image' },
    ]);
    const videos = await get(`/api/media/files/videos?basePath=${encodeURIComponent(base)}`);
    expect(videos.json().files.map((f: { path: string }) => f.path)).toEqual(['video/clip.mp4']);
  });

  it('lists every category, or one chosen with ?category=', async () => {
    const all = await get('/api/media/files');
    expect(all.json().files.map((f: { category: string }) => f.category)).toEqual([
      'image',
      'image',
      'video',
      'audio',
    ]);
    const audio = await get('/api/media/files?category=audio');
    expect(audio.json().files.map((f: { path: string }) => f.path)).toEqual(['audio/song.mp3']);
    expect((await get('/api/media/files?category=documents')).statusCode).toBe(400);
  });

  it('refuses a base path outside the allowed media roots, naming the setting to change', async () => {
    const response = await get('/api/media/files/images?basePath=/etc');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('must be inside an allowed media folder');
    expect(response.json().message).toContain('MEDIA_ROOTS');
    const sneaky = await get(`/api/media/files?basePath=${encodeURIComponent(`${t.dataDir}/../..`)}`);
    expect(sneaky.statusCode).toBe(400);
  });

  it('refuses a base path that is a link leading out of the media roots', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'outside-'));
    try {
      await symlink(outside, path.join(t.dataDir, 'escape'));
      const response = await get(
        `/api/media/files?basePath=${encodeURIComponent(path.join(t.dataDir, 'escape'))}`,
      );
      expect(response.statusCode).toBe(400);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses a folder not made yet behind such a link, for list, scan, upload and delete (16.15)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'outside-'));
    try {
      await symlink(outside, path.join(t.dataDir, 'escape'));
      const basePath = path.join(t.dataDir, 'escape', 'not-yet', 'library');
      const form = multipart({ mediaType: 'image', basePath }, [{ name: 'x.png', content: fixtures.png() }]);
      const answers = [
        await get(`/api/media/files?basePath=${encodeURIComponent(basePath)}`),
        await post('/api/media/scan-files', { basePath }),
        await t.app.inject({
          method: 'POST',
          url: '/api/media/upload',
          payload: form.payload,
          headers: { ...form.headers, ...bearer(admin) },
        }),
        await post('/api/media/delete', { basePath, paths: ['image/x.png'] }),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400, 400, 400]);
      expect(answers[0]!.json().msg).toMatch(/inside an allowed media folder/);
      expect(await readdir(outside, { recursive: true })).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('accepts a base path under another root allowed by MEDIA_ROOTS', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'other-root-'));
    const custom = await createTestApp({ MEDIA_ROOTS: other });
    try {
      const token = (await createUser(custom, { role: 'admin' })).token;
      await mkdir(path.join(other, 'lib', 'image'), { recursive: true });
      await writeFile(path.join(other, 'lib', 'image', 'x.gif'), fixtures.gif());
      const response = await custom.app.inject({
        method: 'GET',
        url: `/api/media/files/images?basePath=${encodeURIComponent(path.join(other, 'lib'))}`,
        headers: bearer(token),
      });
      expect(response.json().files.map((f: { name: string }) => f.name)).toEqual(['x.gif']);
    } finally {
      await custom.close();
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('scan', () => {
  it('counts the library, remembers the scan and gives its timestamp to the file lists', async () => {
    const never = await get('/api/media/last-scan');
    expect(never.json()).toEqual({ success: true, basePath: base, lastScan: null, folderProblem: null });
    expect((await get('/api/media/files/images')).json().timestamp).toBeNull();

    const scan = await post('/api/media/scan-files', { basePath: base });
    expect(scan.statusCode).toBe(200);
    const body = scan.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Scan complete: 4 files found',
      discoveries: { total: 4, images: 2, videos: 1, audio: 1 },
    });
    expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.now() - 10_000);

    const last = await get('/api/media/last-scan');
    expect(last.json().lastScan).toEqual({ timestamp: body.timestamp, discoveries: body.discoveries });
    expect((await get('/api/media/files/videos')).json().timestamp).toBe(body.timestamp);
  });

  it('creates the image, video and audio folders of a new base path', async () => {
    const fresh = path.join(t.dataDir, 'new-library');
    const scan = await post('/api/media/scan-files', { basePath: fresh });
    expect(scan.json().discoveries).toEqual({ total: 0, images: 0, videos: 0, audio: 0 });
    const list = await get(`/api/media/files?basePath=${encodeURIComponent(fresh)}`);
    expect(list.json().files).toEqual([]);
  });

  it('clears away temporary upload files left by a crash a day ago, but not one in progress', async () => {
    const stale = path.join(base, 'video', '.upload-0b7e1c.part');
    await writeFile(stale, 'left by a crash');
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await utimes(stale, old, old);
    await post('/api/media/scan-files', {});
    expect(await readdir(path.join(base, 'video'))).toEqual(['clip.mp4']);
    expect(await readdir(path.join(base, 'image'))).toContain('.upload-123.part');
  });

  it('keeps the last scan in the store, so a restarted server still knows it', async () => {
    const scan = (await post('/api/media/scan-files', {})).json();
    const { MediaScansRepository } = await import('./media-scans.repository');
    expect(await new MediaScansRepository(t.store).last(base)).toEqual({
      timestamp: scan.timestamp,
      discoveries: scan.discoveries,
    });
  });
});

describe('permissions', () => {
  const calls: Array<[string, string, object?]> = [
    ['GET', '/api/media/files/images'],
    ['GET', '/api/media/files/videos'],
    ['GET', '/api/media/files'],
    ['GET', '/api/media/last-scan'],
    ['POST', '/api/media/scan-files', {}],
    ['POST', '/api/media/delete', { basePath: '/x', paths: ['image/a-dawn.jpg'] }],
    ['POST', '/api/media/upload', {}],
    ['GET', '/api/media/no-such-thing'],
  ];

  it('answers 401 without a token and 403 to members, and lets nothing happen', async () => {
    const member = (await createUser(t)).token;
    for (const [method, url, payload] of calls) {
      const anonymous = await t.app.inject({ method: method as 'GET', url, payload });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const asMember = await t.app.inject({ method: method as 'GET', url, payload, headers: bearer(member) });
      expect(asMember.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await get('/api/media/files/images')).json().files).toHaveLength(2);
    expect((await get('/api/media/last-scan')).json().lastScan).toBeNull();
    expect((await get('/api/media/no-such-thing')).statusCode).toBe(404);
  });
});
