import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

describe('serving the built client', () => {
  let t: TestApp;
  let dist = '';
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
    t = await createTestApp({ CLIENT_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/reset-password/abc', '/admin/dashboard', '/no/such/page'])(
    'answers index.html for %s so the client router decides, revalidated each time',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>app</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it('caches hashed assets for a year', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers JSON 404 for unknown API paths and missing assets, never the page', async () => {
    for (const url of ['/api/unknown', '/assets/missing.js']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(response.body, url).not.toContain('<title>app</title>');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/unknown' })).statusCode).toBe(404);
  });
});
