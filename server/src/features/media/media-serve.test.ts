import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../test/media-fixtures';
import { makeMediaFolder } from '../../test/media-folder';
import { createTestApp, type TestApp } from '../../test/test-app';
import { MediaFolderRepository } from './media-folder.repository';
import { MEDIA_CSP } from './media-serve';

let t: TestApp;
let base: string;
let outside: string;
const video = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
const SECRET = 'TOP-SECRET-CONTENT';
const mp4 = Buffer.concat([fixtures.mp4(24), video]);
/** A video longer than a player's first answer (512 KB), and a picture as long. */
const long = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 7) % 253));
const longMp4 = Buffer.concat([fixtures.mp4(24), long]);
const longJpeg = Buffer.concat([fixtures.jpeg(), long]);

beforeAll(async () => {
  t = await createTestApp();
  base = await makeMediaFolder(t.dataDir, {
    'image/sunset.png': fixtures.png(),
    'image/logo.svg': fixtures.svg(),
    'image/page.html': fixtures.html(),
    'image/.upload-1.part': fixtures.png(),
    'image/café au lait.jpg': fixtures.jpeg(),
    'video/clip.mp4': mp4,
    'video/long.mp4': longMp4,
    'image/long.jpg': longJpeg,
    'audio/tune.ogg': fixtures.ogg(),
  });
  await mkdir(path.join(base, 'image', 'folder.png'));
  await writeFile(path.join(t.dataDir, 'secret.jpg'), SECRET);
  outside = await mkdtemp(path.join(tmpdir(), 'outside-'));
  await writeFile(path.join(outside, 'victim.png'), fixtures.png());
  await symlink(path.join(outside, 'victim.png'), path.join(base, 'image', 'link.png'));
  await symlink(path.join(t.dataDir, 'secret.jpg'), path.join(base, 'image', 'inner-link.jpg'));
});
afterAll(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const fetchMedia = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

describe('serving /media', () => {
  it('serves library files to anyone, with their content type and protective headers', async () => {
    const cases: Array<[string, string, Buffer]> = [
      ['/media/image/sunset.png', 'image/png', fixtures.png()],
      ['/media/image/logo.svg', 'image/svg+xml', fixtures.svg()],
      ['/media/video/clip.mp4', 'video/mp4', mp4],
      ['/media/audio/tune.ogg', 'audio/ogg', fixtures.ogg()],
      ['/media/image/caf%C3%A9%20au%20lait.jpg', 'image/jpeg', fixtures.jpeg()],
    ];
    for (const [url, type, content] of cases) {
      const response = await fetchMedia(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(type);
      expect(response.rawPayload.equals(content), url).toBe(true);
      expect(response.headers['content-length']).toBe(String(content.length));
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.headers['cache-control']).toBe('public, no-cache');
    }
  });

  it('sandboxes every media file, so an SVG opened directly cannot run script', async () => {
    const response = await fetchMedia('/media/image/logo.svg');
    expect(response.headers['content-security-policy']).toBe(MEDIA_CSP);
    expect(MEDIA_CSP).toContain('sandbox');
    expect(MEDIA_CSP).toContain("default-src 'none'");
    expect(MEDIA_CSP).not.toContain('script-src');
  });

  it('answers byte ranges so that videos can seek', async () => {
    const middle = await fetchMedia('/media/video/clip.mp4', { range: 'bytes=100-199' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${mp4.length}`);
    expect(middle.headers['content-length']).toBe('100');
    expect(middle.rawPayload.equals(mp4.subarray(100, 200))).toBe(true);

    const open = await fetchMedia('/media/video/clip.mp4', { range: 'bytes=5000-' });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(mp4.subarray(5000))).toBe(true);

    const suffix = await fetchMedia('/media/video/clip.mp4', { range: 'bytes=-10' });
    expect(suffix.headers['content-range']).toBe(`bytes ${mp4.length - 10}-${mp4.length - 1}/${mp4.length}`);
    expect(suffix.rawPayload.equals(mp4.subarray(-10))).toBe(true);

    const tooFar = await fetchMedia('/media/video/clip.mp4', { range: `bytes=${mp4.length}-` });
    expect(tooFar.statusCode).toBe(416);
    expect(tooFar.headers['content-range']).toBe(`bytes */${mp4.length}`);

    // Several ranges: the first one is answered, never the whole file.
    const several = await fetchMedia('/media/video/clip.mp4', { range: 'bytes=0-1,5-6' });
    expect(several.statusCode).toBe(206);
    expect(several.headers['content-range']).toBe(`bytes 0-1/${mp4.length}`);
    expect(several.rawPayload.equals(mp4.subarray(0, 2))).toBe(true);
  });

  it('answers a video 512 KB at a time when the player leaves the end open, and a picture or a named range whole', async () => {
    const parts: Buffer[] = [];
    let from = 0;
    while (from < longMp4.length) {
      const part = await fetchMedia('/media/video/long.mp4', { range: `bytes=${from}-` });
      expect(part.statusCode).toBe(206);
      const end = Math.min(from + 524288, longMp4.length) - 1;
      expect(part.headers['content-range']).toBe(`bytes ${from}-${end}/${longMp4.length}`);
      expect(part.headers['content-length']).toBe(String(end - from + 1));
      parts.push(part.rawPayload);
      from = end + 1;
    }
    // The player got all of it, in three answers.
    expect(parts).toHaveLength(3);
    expect(Buffer.concat(parts).equals(longMp4)).toBe(true);

    // Several ranges never answer the whole file: the first, an open one in its step too.
    const several = await fetchMedia('/media/video/long.mp4', { range: 'bytes=0-0,1-1' });
    expect(several.statusCode).toBe(206);
    expect(several.headers['content-range']).toBe(`bytes 0-0/${longMp4.length}`);
    expect(several.rawPayload.length).toBe(1);
    const openFirst = await fetchMedia('/media/video/long.mp4', { range: 'bytes=0-, 5-6' });
    expect(openFirst.headers['content-range']).toBe(`bytes 0-524287/${longMp4.length}`);
    expect(openFirst.rawPayload.length).toBe(524288);

    // A range asked with its end, a download (no range) and a picture get exactly what they ask.
    const named = await fetchMedia('/media/video/long.mp4', { range: `bytes=0-${longMp4.length - 1}` });
    expect(named.rawPayload.length).toBe(longMp4.length);
    const download = await fetchMedia('/media/video/long.mp4');
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(longMp4)).toBe(true);
    const picture = await fetchMedia('/media/image/long.jpg', { range: 'bytes=0-' });
    expect(picture.headers['content-range']).toBe(`bytes 0-${longJpeg.length - 1}/${longJpeg.length}`);
  });

  it('revalidates with ETag and Last-Modified, and honours If-Range', async () => {
    const first = await fetchMedia('/media/image/sunset.png');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(lastModified)).toBeGreaterThan(0);

    const byTag = await fetchMedia('/media/image/sunset.png', { 'if-none-match': etag });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    expect((await fetchMedia('/media/image/sunset.png', { 'if-none-match': '"other"' })).statusCode).toBe(
      200,
    );
    expect(
      (await fetchMedia('/media/image/sunset.png', { 'if-modified-since': lastModified })).statusCode,
    ).toBe(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetchMedia('/media/image/sunset.png', { 'if-modified-since': older })).statusCode).toBe(
      200,
    );

    const stale = await fetchMedia('/media/video/clip.mp4', { range: 'bytes=0-9', 'if-range': '"changed"' });
    expect(stale.statusCode).toBe(200);
    const video = await fetchMedia('/media/video/clip.mp4');
    const fresh = await fetchMedia('/media/video/clip.mp4', {
      range: 'bytes=0-9',
      'if-range': video.headers.etag as string,
    });
    expect(fresh.statusCode).toBe(206);
  });

  it('gives a longer cache life to versioned URLs (?v=<last scan>)', async () => {
    const response = await fetchMedia('/media/image/sunset.png?v=2025-01-01T00%3A00%3A00.000Z');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await fetchMedia('/media/video/clip.mp4', {}, 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(mp4.length));
    expect(response.rawPayload.length).toBe(0);
  });

  it('never lists folders and never serves hidden, unfitting or linked files', async () => {
    for (const url of [
      '/media/',
      '/media/image',
      '/media/image/',
      '/media/image/folder.png',
      '/media/image/.upload-1.part',
      '/media/image/page.html',
      '/media/image/missing.png',
      '/media/image/link.png',
      '/media/image/inner-link.jpg',
      '/media/documents/sunset.png',
    ]) {
      const response = await fetchMedia(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('PNG');
    }
  });

  it('never leaves the library, however the path is written', async () => {
    for (const url of [
      '/media/../secret.jpg',
      '/media/image/../../secret.jpg',
      '/media/%2e%2e/secret.jpg',
      '/media/image/%2e%2e%2f%2e%2e%2fsecret.jpg',
      '/media/image/..%2f..%2fsecret.jpg',
      '/media/image/%2E%2E%5C%2E%2E%5Csecret.jpg',
      '/media/image%2f..%2f..%2fsecret.jpg',
      `/media/${encodeURIComponent(path.join(t.dataDir, 'secret.jpg'))}`,
      `/media/image/${encodeURIComponent(path.join(t.dataDir, 'secret.jpg'))}`,
      '/media/image/%00secret.jpg',
      '/media//etc/passwd',
    ]) {
      const response = await fetchMedia(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain(SECRET);
    }
    // A malformed escape is refused by the router itself.
    expect((await fetchMedia('/media/image/%E0%A4%A.jpg')).statusCode).toBe(400);
  });

  it('serves from the base path configured right now', async () => {
    const other = path.join(t.dataDir, 'other-library');
    await mkdir(path.join(other, 'image'), { recursive: true });
    await writeFile(path.join(other, 'image', 'elsewhere.gif'), fixtures.gif());
    const folder = new MediaFolderRepository(t.store, path.join(t.dataDir, 'media'));
    const before = await folder.get();
    await folder.save(other);
    try {
      expect((await fetchMedia('/media/image/elsewhere.gif')).statusCode).toBe(200);
      expect((await fetchMedia('/media/image/sunset.png')).statusCode).toBe(404);
      // A base path outside the media roots (set before the roots changed, say) serves nothing.
      await folder.save(outside);
      await mkdir(path.join(outside, 'image'), { recursive: true });
      await writeFile(path.join(outside, 'image', 'x.png'), fixtures.png());
      expect((await fetchMedia('/media/image/x.png')).statusCode).toBe(404);
    } finally {
      await folder.save(before);
    }
    expect((await fetchMedia('/media/image/sunset.png')).statusCode).toBe(200);
  });
});
