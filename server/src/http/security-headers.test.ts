import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../test/test-app';
import { API_SECURITY_HEADERS } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('security headers', () => {
  it('puts the pages under the strict policy, framing and isolation rules', async () => {
    // No client build here: the page answer is the 503 notice, with the page headers all the same.
    const response = await t.app.inject({ method: 'GET', url: '/login' });
    expect(response.headers).toMatchObject({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
    });
    const csp = response.headers['content-security-policy'] as string;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(directive);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['an answer', '/api/health'],
    ['the public slides', '/api/slider/public'],
    ['a refusal', '/api/admin/users'],
    ['a path no route has', '/api/no/such/thing'],
  ])('gives %s of the API the headers that protect data', async (_what, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.headers).toMatchObject(API_SECURITY_HEADERS);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // Document-only headers are not sent with data.
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
  });
});

describe('API caching (16.21)', () => {
  it('signed-in answers and refusals are never stored by browsers or proxies', async () => {
    const member = await createUser(t);
    const admin = await createUser(t, { role: 'admin' });
    for (const [url, token] of [
      ['/api/auth/me', member.token],
      ['/api/admin/users', admin.token],
      ['/api/admin/stats', admin.token],
      ['/api/admin/users', member.token],
      ['/api/health', undefined],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    // The slideshow's public data keeps its own rule: revalidated with its ETag.
    expect((await t.app.inject({ method: 'GET', url: '/api/slider/public' })).headers['cache-control']).toBe(
      'no-cache',
    );
  });
});
