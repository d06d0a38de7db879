import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Playlist } from '@common/schemas/playlist';
import type { PublicSlidesData, SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS } from '../../http/security-headers';
import { makeMediaFolder } from '../../test/media-folder';
import { bearer, createTestApp, createUser, saveAppServerSettings, type TestApp } from '../../test/test-app';
import { DEFAULT_SLIDES } from './default-backgrounds';

let t: TestApp;
let admin: string;

const addMedia = (files: string[]) => makeMediaFolder(t.dataDir, files);

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
});
afterEach(() => t.close());

const publicData = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
  expect(response.statusCode).toBe(200);
  return response.json().data as PublicSlidesData;
};
const getConfig = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/slider/config', headers: bearer(admin) })).json()
    .data as SlideshowSettings;
const putConfig = (config: unknown, token = admin) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/slider/config',
    payload: config as object,
    headers: bearer(token),
  });
const createPlaylist = async (name: string, urls: string[]) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: bearer(admin),
      payload: {
        name,
        items: urls.map((url) => ({ type: url.includes('/video/') ? 'video' : 'image', url })),
      },
    })
  ).json().data as Playlist;

describe('GET /api/slider/public', () => {
  it('plays the project-made backgrounds when nothing else is playable, with the default config', async () => {
    const data = await publicData();
    expect(data.slides).toEqual(DEFAULT_SLIDES);
    expect(data.slides.length).toBeGreaterThanOrEqual(3);
    expect(data.videos).toEqual([]);
    expect(data.config).toEqual(SLIDESHOW_DEFAULTS);
    const svg = await t.app.inject({ method: 'GET', url: data.slides[0]!.src });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg /);
    // Versioned URLs are kept a year; the bare name only a day.
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const unversioned = await t.app.inject({ method: 'GET', url: data.slides[0]!.src.split('?')[0]! });
    expect(unversioned.headers['cache-control']).toBe('public, max-age=86400');
    expect((await t.app.inject({ method: 'GET', url: '/api/slider/defaults/nope.svg' })).statusCode).toBe(
      404,
    );
  });

  it('with no active playlist serves the library images then videos; never the base path', async () => {
    await addMedia(['image/b.jpg', 'image/a.png', 'video/v.mp4', 'audio/song.mp3', 'image/notes.txt']);
    const response = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).not.toContain(t.dataDir);
    const data = response.json().data as PublicSlidesData;
    expect(data.slides).toEqual([
      { type: 'image', src: '/media/image/a.png' },
      { type: 'image', src: '/media/image/b.jpg' },
      { type: 'video', src: '/media/video/v.mp4' },
    ]);
    expect(data.images).toEqual(['/media/image/a.png', '/media/image/b.jpg']);
    expect(data.videos).toEqual(['/media/video/v.mp4']);
  });

  it('answers a repeat load carrying the ETag with an empty 304', async () => {
    await addMedia(['image/a.png']);
    const first = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/slider/public',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('keeps the CORS Vary of an origin list beside its own, and answers HEAD with the length and no body', async () => {
    await addMedia(['image/a.png']);
    await saveAppServerSettings(t, admin, { corsOrigin: 'https://allowed.example' });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/slider/public',
      headers: { origin: 'https://allowed.example' },
    });
    expect(listed.headers['access-control-allow-origin']).toBe('https://allowed.example');
    // A cache keeping one answer per encoding only would hand one origin's answer to another.
    expect(listed.headers.vary).toBe('Origin, Accept-Encoding');
    expect(listed.headers).toMatchObject(API_SECURITY_HEADERS);

    const head = await t.app.inject({ method: 'HEAD', url: '/api/slider/public' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(listed.rawPayload.length));
  });

  it('sends on a 304 only what guides caches (RFC 9110, 15.4.5), CORS included', async () => {
    await addMedia(['image/a.png']);
    const first = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/slider/public',
      headers: { 'if-none-match': first.headers.etag as string, origin: 'https://elsewhere.example' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers).toMatchObject({
      etag: first.headers.etag,
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
      'access-control-allow-origin': '*',
    });
    // The browser keeps the stored 200's headers (these among them) and updates only the above.
    for (const name of Object.keys(API_SECURITY_HEADERS)) expect(again.headers[name], name).toBeUndefined();
    expect(first.headers).toMatchObject(API_SECURITY_HEADERS);
  });

  it("plays the active playlist's existing items in its order, and changes at once on a write", async () => {
    await addMedia(['image/a.png', 'image/b.png', 'video/v.mp4']);
    const before = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    const playlist = await createPlaylist('Order', ['/media/video/v.mp4', '/media/image/b.png']);
    await putConfig({ ...(await getConfig()), activePlaylist: playlist._id, cycleTime: 3000 });

    const after = await t.app.inject({
      method: 'GET',
      url: '/api/slider/public',
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    const data = after.json().data as PublicSlidesData;
    expect(data.slides).toEqual([
      { type: 'video', src: '/media/video/v.mp4' },
      { type: 'image', src: '/media/image/b.png' },
    ]);
    expect(data.config.cycleTime).toBe(3000);

    // A file removed from disk drops out of the show once the short cache has expired.
    await rm(path.join(t.dataDir, 'media/video/v.mp4'));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await publicData()).slides).toEqual([{ type: 'image', src: '/media/image/b.png' }]);
  });

  it('shuffles the slides on each load when random order is on', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `image/p${String(i).padStart(2, '0')}.png`);
    await addMedia(names);
    await putConfig({ ...(await getConfig()), randomOrder: true });
    const orders = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const data = await publicData();
      expect([...data.slides.map((s) => s.src)].sort()).toEqual(names.map((n) => `/media/${n}`));
      expect(data.images).toEqual(data.slides.map((s) => s.src));
      orders.add(data.slides.map((s) => s.src).join());
    }
    // 12! orders: five identical draws would mean no shuffling at all.
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('/api/slider/config', () => {
  it('reads the defaults and saves a full configuration', async () => {
    const config = await getConfig();
    expect(config).toMatchObject({ ...SLIDESHOW_DEFAULTS, activePlaylist: null });
    expect(config.backgroundsBasePath).toBe(path.join(t.dataDir, 'media'));

    const saved = await putConfig({
      ...config,
      cycleTime: 5000,
      transitionDuration: 800,
      overlayColor: '10, 20,30',
      overlayOpacity: 0.55,
      randomOrder: true,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ success: true, message: 'Configuration saved successfully!' });
    expect(await getConfig()).toMatchObject({
      cycleTime: 5000,
      overlayColor: '10,20,30',
      overlayOpacity: 0.55,
    });
    expect((await publicData()).config).toEqual({
      cycleTime: 5000,
      transitionDuration: 800,
      overlayColor: '10,20,30',
      overlayOpacity: 0.55,
      randomOrder: true,
    });
  });

  it('refuses out-of-range values with a clear message and keeps the old config', async () => {
    const config = await getConfig();
    const cases: Array<[Partial<SlideshowSettings> | Record<string, unknown>, RegExp]> = [
      [{ overlayOpacity: 1.5 }, /Overlay opacity must be a number from 0 to 1/],
      [{ overlayColor: '256,0,0' }, /0 to 255/],
      [{ overlayColor: 'red' }, /three numbers/],
      [{ cycleTime: 5 }, /Cycle time must be a whole number/],
      [{ transitionDuration: 1.5 }, /Transition duration/],
      [{ randomOrder: 'yes' }, /randomOrder/],
      [{ backgroundsBasePath: '' }, /Please set a base path first\./],
      [{ backgroundsBasePath: '/etc' }, /must be inside an allowed media folder/],
      [{ activePlaylist: 'a'.repeat(24) }, /no longer exists/],
    ];
    for (const [change, message] of cases) {
      const response = await putConfig({ ...config, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await getConfig()).toEqual(config);
  });

  it('is for administrators only', async () => {
    const member = (await createUser(t)).token;
    const config = await getConfig();
    expect((await putConfig(config, member)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/slider/config', headers: bearer(member) })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/slider/config', payload: config })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/slider/config' })).statusCode).toBe(401);
  });
});
