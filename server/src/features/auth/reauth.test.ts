import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { loadTokenKey } from '../sessions/token-service';
import { hashPassword } from '../users/passwords';
import type { UserDoc } from '../users/users.repository';
import { ReauthProofs } from './reauth';

let t: TestApp;
let admin: { user: UserDoc; token: string; password: string };
let other: { user: UserDoc; token: string; password: string };
beforeEach(async () => {
  // No nginx is run by these tests: a save that gets through fails on the missing binary.
  t = await createTestApp({ NGINX_BIN: '/nonexistent/nginx' });
  admin = await createUser(t, { email: 'owner@example.com', role: 'admin' });
  other = await createUser(t, { email: 'second@example.com', role: 'admin' });
});
afterEach(() => t.close());

const mongo = { host: '127.0.0.1', port: 1, database: 'members' };

/** Every change that can take the site, as [method, url, body]. */
const SYSTEM_CHANGES = (): Array<[string, string, object | undefined]> => [
  ['POST', '/api/admin/mongodb/config', mongo],
  ['POST', '/api/admin/mongodb/test', mongo],
  ['POST', '/api/system/config', { serverName: 'example.com' }],
  ['POST', '/api/system/nginx/config', { serverName: 'example.com' }],
  ['POST', '/api/system/restart', {}],
  ['POST', '/api/system/nginx/history/0123456789ab/restore', {}],
  ['POST', '/api/admin/nodejs/config', { rateLimitMax: 5 }],
  ['POST', '/api/admin/nodejs/restart', {}],
  ['DELETE', `/api/admin/users/${other.user._id}`, undefined],
  ['PUT', `/api/admin/users/${other.user._id}`, { role: 'user' }],
  ['PUT', `/api/admin/users/${other.user._id}`, { status: 'suspended' }],
  ['PUT', `/api/admin/users/${other.user._id}`, { email: 'taken@example.com' }],
  ['PUT', `/api/admin/users/${other.user._id}`, { password: 'taken-over-1' }],
  ['POST', '/api/admin/users', { name: 'New', email: 'new@example.com', password: 'secret1', role: 'admin' }],
];

const send = (method: string, url: string, payload: object | undefined, headers: Record<string, string>) =>
  t.app.inject({ method: method as 'POST', url, payload, headers });

describe('changes that can take the site', () => {
  it('are refused with REAUTH_REQUIRED for a token alone, even one signed in this second, and change nothing', async () => {
    const fresh = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.com', password: admin.password },
      })
    ).json().token as string;
    for (const [method, url, payload] of SYSTEM_CHANGES()) {
      const response = await send(method, url, payload, bearer(fresh));
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().code, `${method} ${url}`).toBe('REAUTH_REQUIRED');
    }
    expect(await t.store.collection<UserDoc>('users').findById(other.user._id)).toMatchObject({
      role: 'admin',
      status: 'active',
      email: 'second@example.com',
      password: other.user.password,
    });
    expect(await t.store.collection<UserDoc>('users').findOne({ email: 'new@example.com' })).toBeNull();
    const nodejs = await t.app.inject({ url: '/api/admin/nodejs/config', headers: bearer(fresh) });
    expect(nodejs.json().config.rateLimitMax).not.toBe(5);
  });

  it('pass with a proof from the password typed again (a refused answer is then the change’s own)', async () => {
    const headers = await confirmed(t, admin.token, admin.password);
    for (const [method, url, payload] of SYSTEM_CHANGES()) {
      const response = await send(method, url, payload, headers);
      expect(response.json().code, `${method} ${url}`).not.toBe('REAUTH_REQUIRED');
    }
  });

  it('refuse a proof used with another sign-in token or by another administrator, and are no sign-in token', async () => {
    const proof = (await confirmed(t, admin.token, admin.password))['x-reauth']!;
    // Tokens signed in the same second for the same person are the same token: sign in a second later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const secondSession = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.com', password: admin.password },
      })
    ).json().token as string;
    const restart = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/admin/nodejs/restart', headers });
    expect((await restart({ ...bearer(secondSession), 'x-reauth': proof })).json().code).toBe(
      'REAUTH_REQUIRED',
    );
    expect((await restart({ ...bearer(other.token), 'x-reauth': proof })).json().code).toBe(
      'REAUTH_REQUIRED',
    );
    expect((await restart({ ...bearer(admin.token), 'x-reauth': proof })).json().code).not.toBe(
      'REAUTH_REQUIRED',
    );
    // The same proof is no sign-in token either.
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(proof) })).statusCode).toBe(401);
  });

  it('refuse a proof older than 10 minutes', async () => {
    const proofs = new ReauthProofs(await loadTokenKey(t.dataDir));
    const sessionId = JSON.parse(Buffer.from(admin.token.split('.')[1]!, 'base64url').toString()).jti;
    const old = await proofs.issue(admin.user, sessionId, admin.token, Date.now() - 10 * 60 * 1000 - 1000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/nodejs/restart',
      headers: { ...bearer(admin.token), 'x-reauth': old.proof },
    });
    expect(response.json().code).toBe('REAUTH_REQUIRED');
  });
});

describe('a password change', () => {
  const restart = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/admin/nodejs/restart', headers });

  it('on the account page voids the proofs confirmed before it; the new password gives a new one', async () => {
    const before = await confirmed(t, admin.token, admin.password);
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/account/password',
      headers: bearer(admin.token),
      payload: { currentPassword: admin.password, newPassword: 'owner-new-pass' },
    });
    expect(change.statusCode).toBe(200);
    // The session and token stay signed in; only the proof is gone.
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(admin.token) })).statusCode).toBe(200);
    expect((await restart(before)).json().code).toBe('REAUTH_REQUIRED');
    const after = await confirmed(t, admin.token, 'owner-new-pass');
    expect((await restart(after)).json().code).not.toBe('REAUTH_REQUIRED');
  });

  it('of one’s own in the console voids the proof it was made with', async () => {
    const headers = await confirmed(t, admin.token, admin.password);
    const change = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${admin.user._id}`,
      headers,
      payload: { password: 'owner-new-pass' },
    });
    expect(change.statusCode).toBe(200);
    expect((await restart(headers)).json().code).toBe('REAUTH_REQUIRED');
  });

  it('by any path (a reset too) leaves a proof of the old password worthless for the same session and token', async () => {
    const proofs = new ReauthProofs(await loadTokenKey(t.dataDir));
    const sessionId = JSON.parse(Buffer.from(admin.token.split('.')[1]!, 'base64url').toString()).jti;
    const { proof } = await proofs.issue(admin.user, sessionId, admin.token);
    const request = (user: UserDoc) =>
      ({
        headers: { ...bearer(admin.token), 'x-reauth': proof },
        user,
        sessionId,
      }) as unknown as FastifyRequest;
    expect(await proofs.holds(request(admin.user))).toBe(true);
    const rehashed = { ...admin.user, password: await hashPassword('owner-new-pass') };
    expect(await proofs.holds(request(rehashed))).toBe(false);
  });
});

describe('POST /api/auth/reauth', () => {
  it('refuses a wrong password, and the guesses count against the sign-in limits', async () => {
    const wrong = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/reauth',
        headers: bearer(admin.token),
        payload: { password: 'not-it' },
      });
    const first = await wrong();
    expect(first.statusCode).toBe(400);
    expect(first.json().proof).toBeUndefined();
    for (let i = 0; i < 9; i += 1) await wrong();
    expect((await wrong()).statusCode).toBe(429);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'owner@example.com', password: admin.password },
    });
    expect(login.statusCode).toBe(429);
  });

  it('is for administrators only', async () => {
    const member = await createUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reauth',
      headers: bearer(member.token),
      payload: { password: member.password },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('Test Connection', () => {
  it('is limited per administrator: the 11th test in a minute is refused, another administrator still tests', async () => {
    const headers = await confirmed(t, admin.token, admin.password);
    const test = (h: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/admin/mongodb/test', headers: h, payload: mongo });
    for (let i = 0; i < 10; i += 1) expect((await test(headers)).statusCode).not.toBe(429);
    expect((await test(headers)).statusCode).toBe(429);
    expect((await test(await confirmed(t, other.token, other.password))).statusCode).not.toBe(429);
  });
});

describe('deleting administrators', () => {
  it('refuses deleting yourself; another administrator can, with their password confirmed', async () => {
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${admin.user._id}`,
      headers: await confirmed(t, admin.token, admin.password),
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toMatch(/cannot delete your own account.*Another administrator/);
    const byOther = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${admin.user._id}`,
      headers: await confirmed(t, other.token, other.password),
    });
    expect(byOther.statusCode).toBe(200);
  });

  it('deleting or editing a member stays one click', async () => {
    const member = await createUser(t);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: bearer(admin.token),
      payload: { status: 'suspended', membershipTier: 'paid' },
    });
    expect(edit.statusCode).toBe(200);
    const member2 = await createUser(t);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${member2.user._id}`,
      headers: bearer(admin.token),
    });
    expect(del.statusCode).toBe(200);
  });
});
