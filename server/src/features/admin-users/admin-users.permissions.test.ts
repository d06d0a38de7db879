import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let memberToken: string;
let suspendedAdminToken: string;
let targetId: string;
beforeAll(async () => {
  t = await createTestApp();
  await createUser(t, { role: 'admin' });
  memberToken = (await createUser(t, { role: 'user', membershipTier: 'paid' })).token;
  suspendedAdminToken = (await createUser(t, { role: 'admin', status: 'suspended' })).token;
  targetId = (await createUser(t)).user._id;
});
afterAll(() => t.close());

const ROUTES = () =>
  [
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/users?search=a&sortBy=name&sortOrder=asc&page=1'],
    ['GET', '/api/admin/users/export.csv'],
    ['GET', '/api/admin/stats'],
    ['POST', '/api/admin/users'],
    ['PUT', `/api/admin/users/${targetId}`],
    ['DELETE', `/api/admin/users/${targetId}`],
  ] as const;

describe('every /api/admin user route', () => {
  it('answers 401 without a token, or with a forged one', async () => {
    for (const [method, url] of ROUTES()) {
      for (const headers of [{}, bearer('not.a.token')]) {
        const response = await t.app.inject({
          method,
          url,
          headers,
          payload: method === 'GET' ? undefined : {},
        });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    }
  });

  it('answers 403 to a signed-in member, changing nothing', async () => {
    for (const [method, url] of ROUTES()) {
      const response = await t.app.inject({
        method,
        url,
        headers: bearer(memberToken),
        payload:
          method === 'GET'
            ? undefined
            : { name: 'X', email: 'x@example.com', password: 'secret1', role: 'admin' },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      // The client signs a demoted administrator out by this code (client/src/lib/api-client.ts).
      expect(response.json()).toMatchObject({
        code: 'NOT_ADMIN',
        message: 'Administrator access is required.',
      });
    }
    expect(await t.store.collection('users').count()).toBe(4);
  });

  it('answers 403 to a suspended administrator', async () => {
    const response = await t.app.inject({ url: '/api/admin/users', headers: bearer(suspendedAdminToken) });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('ACCOUNT_SUSPENDED');
  });
});
