import type { Playlist } from '@common/schemas/playlist';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeMediaFolder } from '../../test/media-folder';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  await makeMediaFolder(t.dataDir, ['image/a.jpg', 'image/b.png', 'video/clip.mp4']);
});
afterEach(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  t.app.inject({ method, url, payload: payload as object, headers: bearer(token) });

describe('playlists API', () => {
  it('creates, lists, reorders and deletes a playlist', async () => {
    const created = await call('POST', '/api/playlists', {
      name: '  Calm  ',
      items: [
        { type: 'video', url: '/media/video/clip.mp4' },
        { type: 'image', url: '/media/image/a.jpg' },
      ],
      images: [],
      videos: [],
    });
    expect(created.statusCode).toBe(201);
    const playlist = created.json().data as Playlist;
    expect(playlist.name).toBe('Calm');
    expect(playlist.items.map((i) => i.url)).toEqual(['/media/video/clip.mp4', '/media/image/a.jpg']);
    expect(playlist.images).toEqual(['/media/image/a.jpg']);
    expect(playlist.videos).toEqual(['/media/video/clip.mp4']);

    const list = await call('GET', '/api/playlists');
    expect(list.statusCode).toBe(200);
    expect((list.json() as Playlist[]).map((p) => p.name)).toEqual(['Calm']);

    const reordered = await call('PUT', `/api/playlists/${playlist._id}`, {
      items: [
        { type: 'image', url: '/media/image/b.png' },
        { type: 'image', url: '/media/image/a.jpg' },
      ],
    });
    expect(reordered.statusCode).toBe(200);
    expect((reordered.json().data as Playlist).items.map((i) => i.url)).toEqual([
      '/media/image/b.png',
      '/media/image/a.jpg',
    ]);
    expect((reordered.json().data as Playlist).videos).toEqual([]);

    const deleted = await call('DELETE', `/api/playlists/${playlist._id}`);
    expect(deleted.json()).toMatchObject({ success: true });
    expect((await call('GET', '/api/playlists')).json()).toEqual([]);
    expect((await call('DELETE', `/api/playlists/${playlist._id}`)).statusCode).toBe(404);
  });

  it('keeps only items that still exist in the library, each once', async () => {
    const response = await call('POST', '/api/playlists', {
      name: 'Mixed',
      items: [
        { type: 'image', url: '/media/image/a.jpg' },
        { type: 'image', url: '/media/image/gone.jpg' },
        { type: 'image', url: '/media/image/a.jpg' },
        { type: 'video', url: '/media/image/b.png' },
        { type: 'image', url: '/media/../../etc/passwd' },
      ],
    });
    expect((response.json().data as Playlist).items).toEqual([{ type: 'image', url: '/media/image/a.jpg' }]);
  });

  it('builds the order from the legacy images and videos lists when items are absent', async () => {
    const response = await call('POST', '/api/playlists', {
      name: 'Legacy',
      images: ['/media/image/b.png', '/media/image/missing.png'],
      videos: ['/media/video/clip.mp4'],
    });
    expect((response.json().data as Playlist).items).toEqual([
      { type: 'image', url: '/media/image/b.png' },
      { type: 'video', url: '/media/video/clip.mp4' },
    ]);
  });

  it('refuses an empty name and malformed items', async () => {
    const empty = await call('POST', '/api/playlists', { name: '   ', items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Playlist name is required.');
    const missing = await call('POST', '/api/playlists', {});
    expect(missing.json().message).toBe('Playlist name is required.');
    const badItem = await call('POST', '/api/playlists', { name: 'X', items: [{ type: 'audio', url: 'x' }] });
    expect(badItem.statusCode).toBe(400);
    expect(await call('PUT', '/api/playlists/nope', { items: [] }).then((r) => r.statusCode)).toBe(404);
  });

  it('deleting the active playlist leaves none active', async () => {
    const playlist = (await call('POST', '/api/playlists', { name: 'Active' })).json().data as Playlist;
    const config = (await call('GET', '/api/slider/config')).json().data;
    await call('PUT', '/api/slider/config', { ...config, activePlaylist: playlist._id });
    await call('DELETE', `/api/playlists/${playlist._id}`);
    expect((await call('GET', '/api/slider/config')).json().data.activePlaylist).toBeNull();
  });

  it('is for administrators only', async () => {
    const member = (await createUser(t)).token;
    for (const [method, url] of [
      ['GET', '/api/playlists'],
      ['POST', '/api/playlists'],
      ['PUT', '/api/playlists/abc'],
      ['DELETE', '/api/playlists/abc'],
    ] as const) {
      expect((await call(method, url, { name: 'x' }, member)).statusCode).toBe(403);
      expect((await t.app.inject({ method, url, payload: { name: 'x' } })).statusCode).toBe(401);
    }
    expect((await call('GET', '/api/playlists')).json()).toEqual([]);
  });
});
