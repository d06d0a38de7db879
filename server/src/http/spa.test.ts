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
    await writeFile(
      path.join(dist, 'assets', 'main-abc123.js.map'),
      '{"version":3,"sources":["../src/secret.ts"],"mappings":"AAAA"}',
    );
    await mkdir(path.join(dist, 'pages'));
    await writeFile(path.join(dist, 'pages', 'login.html'), '<!doctype html><title>Sign In</title>');
    await writeFile(
      path.join(dist, 'pages', 'resetPassword.html'),
      '<!doctype html><title>New password</title>',
    );
    t = await createTestApp({ CLIENT_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(['/', '/admin/dashboard', '/dashboard', '/admin/database/members'])(
    'answers index.html for %s so the client router decides, revalidated each time',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      // `/` is the home page: its title is the site's name (features/site/site-html.ts).
      expect(response.body).toContain(url === '/' ? '<title>My Site</title>' : '<title>app</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it.each([
    ['/login', 'Sign In'],
    ['/login?next=1', 'Sign In'],
    ['/reset-password/abc', 'New password'],
  ])('answers a public page with its own HTML: %s', async (url, title) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<title>${title}</title>`);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it.each(['/no/such/page', '/login/extra', '/admin/nope', '/wp-login'])(
    'answers %s with the client (its not-found page) and status 404 (16.21)',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<title>app</title>');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it('never serves source maps (16.21)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js' })).statusCode).toBe(200);
    const map = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('mappings');
  });

  it('answers index.html for a public page whose HTML the build did not write', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/join' });
    expect(response.body).toContain('<title>app</title>');
  });

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
