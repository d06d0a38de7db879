import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFile } from '../../../scripts/vite-precompress';
import { bearer, createTestApp, createUser, type TestApp } from '../test/test-app';
import { negotiateEncoding } from './compression';

const BR = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const GZIP = { 'accept-encoding': 'gzip, deflate' };
const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

// Big enough that compression is worth it, and recognisable.
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const HTML = `<!doctype html><html><head><title>app</title></head><body>${'<p>landing</p>'.repeat(200)}</body></html>`;

let t: TestApp;
let dist = '';
beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), HTML);
  await writeFile(path.join(dist, 'assets', 'main-abc123.js'), SCRIPT);
  await writeFile(path.join(dist, 'assets', 'style-abc123.css'), `body{color:red}\n`.repeat(200));
  // The build's own step writes the .br and .gz variants.
  for (const file of ['index.html', 'assets/main-abc123.js', 'assets/style-abc123.css'])
    await compressFile(path.join(dist, file));
  t = await createTestApp({ CLIENT_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

describe('the built client, compressed at build time', () => {
  it('sends the .br file to a browser that accepts brotli, with the real type and year-long caching', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: BR });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toBeTruthy();
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('falls back to the .gz file, then to the file itself', async () => {
    const gzip = await t.app.inject({ method: 'GET', url: '/assets/style-abc123.css', headers: GZIP });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('body{color:red}');

    const plain = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.body).toBe(SCRIPT);
    // Each encoding is its own representation: a cache must not answer one with another.
    const br = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: BR });
    expect(br.headers.etag).not.toBe(plain.headers.etag);
  });

  it.each(['/', '/login', '/reset-password/abc'])(
    'sends the page at %s compressed and revalidated each time',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: BR });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('accept-encoding');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      // The page as built, with the site's words and data filled in (features/site/site-html.ts).
      const page = brotliDecompressSync(response.rawPayload).toString();
      expect(page).toContain('<p>landing</p>'.repeat(200));
      expect(page).toContain('<script type="application/json" id="site-data">');
      // Revalidation still works on the compressed page.
      const again = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...BR, 'if-none-match': response.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    },
  );
});

describe('API answers, compressed on the fly', () => {
  it('compresses JSON over 1 KB (brotli, else gzip) and leaves small JSON alone', async () => {
    const { token } = await createUser(t, { role: 'admin' });
    for (let i = 0; i < 9; i++) await createUser(t, { name: `Compressed Person ${i}` });
    const identity = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(token) });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(1024);

    for (const [headers, encoding] of [
      [BR, 'br'],
      [GZIP, 'gzip'],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/admin/users',
        headers: { ...headers, ...bearer(token) },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers.vary).toContain('accept-encoding');
      expect(JSON.parse(decode(encoding, response.rawPayload).toString())).toEqual(identity.json());
    }

    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: BR });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ success: true });
  });

  it('compresses a streamed answer (the CSV export) as it goes', async () => {
    const { token } = await createUser(t, { role: 'admin' });
    for (let i = 0; i < 5; i++) await createUser(t, { name: `Streamed Person ${i}` });
    const plain = await t.app.inject({ url: '/api/admin/users/export.csv', headers: bearer(token) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [headers, encoding] of [
      [BR, 'br'],
      [GZIP, 'gzip'],
    ] as const) {
      const response = await t.app.inject({
        url: '/api/admin/users/export.csv',
        headers: { ...headers, ...bearer(token) },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(decode(encoding, response.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('never compresses /media, so byte ranges stay byte ranges', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`;
    await mkdir(path.join(t.dataDir, 'media', 'image'), { recursive: true });
    await writeFile(path.join(t.dataDir, 'media', 'image', 'big.svg'), svg);
    const whole = await t.app.inject({ method: 'GET', url: '/media/image/big.svg', headers: BR });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body).toBe(svg);
    const part = await t.app.inject({
      method: 'GET',
      url: '/media/image/big.svg',
      headers: { ...BR, range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body).toBe(svg.slice(0, 100));
  });
});

describe('GET /api/slider/public, compressed once per answer', () => {
  it('answers brotli or gzip with an ETag per encoding, and a 304 for the same content in any encoding', async () => {
    // A library of 40 images makes the answer big enough to compress.
    for (let i = 0; i < 40; i++)
      await writeFile(path.join(t.dataDir, 'media', 'image', `background-number-${i}.png`), 'x');
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the answer's cache time
    const identity = await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    expect(identity.body.length).toBeGreaterThan(1024);
    expect(identity.headers.vary).toBe('Accept-Encoding');
    const br = await t.app.inject({ method: 'GET', url: '/api/slider/public', headers: BR });
    const gzip = await t.app.inject({ method: 'GET', url: '/api/slider/public', headers: GZIP });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const response of [br, gzip]) {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      const encoding = response.headers['content-encoding'] as string;
      expect(decode(encoding, response.rawPayload).toString()).toBe(identity.body);
    }
    const tags = new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]);
    expect(tags.size).toBe(3);

    for (const tag of tags) {
      const again = await t.app.inject({
        method: 'GET',
        url: '/api/slider/public',
        headers: { ...BR, 'if-none-match': tag as string },
      });
      expect(again.statusCode, String(tag)).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(br.headers.etag);
    }
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/slider/public',
      headers: { ...BR, 'if-none-match': '"something-else-br"' },
    });
    expect(stale.statusCode).toBe(200);
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['deflate', null],
    ['GZIP', 'gzip'],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
