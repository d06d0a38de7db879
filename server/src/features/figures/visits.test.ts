import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredDoc } from '../../store/store';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';
import { FLUSH_EVERY_MS } from './visit-counter';

/**
 * Page views without cookies: counted per day and page, a visitor once, never a stored address,
 * not at all for Do Not Track, Global Privacy Control, robots and the console; a forged path or
 * a large body refused and counting nothing. And where members come from.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1';
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const view = (path: string, headers: Record<string, string> = { 'user-agent': BROWSER }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/visits',
    payload: path,
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
  });
const today = new Date().toISOString().slice(0, 10);
const figures = async (what: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/admin/figures/${what}?from=${today}&to=${today}`,
      headers: bearer(admin.token),
    })
  ).json().data;

describe('page views', () => {
  it('counts views and visitors per page and day, leaving out whoever asks not to be tracked', async () => {
    for (const [path, headers] of [
      ['/', { 'user-agent': BROWSER }],
      ['/', { 'user-agent': BROWSER }],
      ['/', { 'user-agent': PHONE }],
      ['/courses', { 'user-agent': BROWSER }],
      ['/reset-password/secret-token-123', { 'user-agent': BROWSER }],
      ['/', { 'user-agent': BROWSER, dnt: '1' }],
      ['/', { 'user-agent': BROWSER, 'sec-gpc': '1' }],
      ['/', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }],
      ['/', { 'user-agent': '' }],
      ['/admin/dashboard', { 'user-agent': BROWSER }],
      ['/dashboard', { 'user-agent': BROWSER }],
    ] as const) {
      expect((await view(path, headers)).statusCode).toBe(204);
    }
    await new Promise((resolve) => setTimeout(resolve, FLUSH_EVERY_MS + 500));
    const visits = await figures('visits');
    expect(visits.days).toEqual([{ day: today, views: 5, visitors: 4 }]);
    expect(visits.pages).toEqual([
      { page: '/', views: 3, visitors: 2 },
      { page: '/courses', views: 1, visitors: 1 },
      // A reset link's token is never kept: the page is counted under its pattern.
      { page: '/reset-password', views: 1, visitors: 1 },
    ]);
  });

  it('keeps no cookie and no address: the stored rows hold neither the address nor the browser', async () => {
    const response = await view('/courses');
    expect(response.headers['set-cookie']).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, FLUSH_EVERY_MS + 500));
    const stored = [];
    for (const name of ['visit_days', 'visit_seen', 'visit_salts'])
      stored.push(...(await t.store.collection<StoredDoc>(name).find({})));
    const text = JSON.stringify(stored);
    expect(stored.length).toBeGreaterThan(3);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('Chrome');
    expect(text).not.toContain('secret-token');
  });

  it('refuses a forged path and a large body, counting nothing', async () => {
    const before = (await figures('visits')).days[0].views;
    for (const path of ['/wp-login.php', 'https://evil.example/', '/courses/../admin', '/courses/<script>']) {
      const response = await view(path);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Not a page of this site.');
    }
    expect((await view(`/${'a'.repeat(1024 * 1024)}`)).statusCode).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, FLUSH_EVERY_MS + 500));
    expect((await figures('visits')).days[0].views).toBe(before);
  });
});

describe('where members come from', () => {
  it('groups sign-ups and upgrades by ref, utm_source or the referrer’s host', async () => {
    const signUp = (email: string, arrival: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'New member', email, password: 'long-enough-1', arrival },
      });
    expect((await signUp('a@example.com', { ref: 'Podcast', utm_source: 'news' })).statusCode).toBe(201);
    expect((await signUp('b@example.com', { utm_source: 'news', utm_medium: 'email' })).statusCode).toBe(201);
    expect(
      (await signUp('c@example.com', { referrer: 'https://www.search.example/q?name=me' })).statusCode,
    ).toBe(201);
    expect((await signUp('d@example.com', { referrer: { $ne: 1 } })).statusCode).toBe(201);
    const a = (await t.store.collection<UserDoc>('users').findOne({ email: 'a@example.com' }))!;
    const upgraded = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${a._id}`,
      headers: await confirmed(t, admin.token),
      payload: { membershipTier: 'paid' },
    });
    expect(upgraded.statusCode).toBe(200);
    expect(await figures('sources')).toEqual([
      { source: 'podcast', signups: 1, upgrades: 1 },
      { source: 'direct', signups: 1, upgrades: 0 },
      { source: 'news', signups: 1, upgrades: 0 },
      { source: 'search.example', signups: 1, upgrades: 0 },
    ]);
    const c = (await t.store.collection<UserDoc>('users').findOne({ email: 'c@example.com' }))!;
    expect(c.signupSource).toEqual({ source: 'search.example', referrer: 'search.example' });
  });
});
