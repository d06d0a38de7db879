import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { SessionDoc } from './sessions.repository';

// Finding 16.7: sessions that can be ended, on the server.
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
const signIn = async (email: string, password: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  expect(response.statusCode).toBe(200);
  return response.json().token as string;
};

describe('sessions', () => {
  it('logout ends that session on the server, and only that one', async () => {
    const member = await createUser(t);
    const phone = await signIn(member.user.email, member.password);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(member.token),
    });
    expect(logout.statusCode).toBe(200);
    expect((await me(member.token)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401);
  });

  it('changing your own password ends your other sessions and keeps this one', async () => {
    const member = await createUser(t, { password: 'first-password' });
    const laptop = await signIn(member.user.email, 'first-password');
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/account/password',
      headers: bearer(member.token),
      payload: { currentPassword: 'first-password', newPassword: 'second-password' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(member.token)).statusCode).toBe(200);
    expect((await me(laptop)).statusCode).toBe(401);
  });

  it('an administrator can end all of a user’s sessions; a member cannot', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const member = await createUser(t);
    const second = await signIn(member.user.email, member.password);
    const url = `/api/admin/users/${member.user._id}/sessions`;
    const refused = await t.app.inject({ method: 'DELETE', url, headers: bearer(member.token) });
    expect(refused.statusCode).toBe(403);
    const ended = await t.app.inject({ method: 'DELETE', url, headers: bearer(admin.token) });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ success: true, ended: 2 });
    expect((await me(member.token)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(admin.token)).statusCode).toBe(200);
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/users/000000000000000000000000/sessions',
      headers: bearer(admin.token),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('an administrator setting a member’s password ends the member’s sessions', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const adminLaptop = await signIn(admin.user.email, admin.password);
    const member = await createUser(t);
    // An administrator's own password needs theirs confirmed (X-Reauth); for a member's it does no harm.
    const headers = await confirmed(t, admin.token, admin.password);
    const put = (id: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${id}`,
        headers,
        payload: { password: 'set-by-admin' },
      });
    expect((await put(member.user._id)).statusCode).toBe(200);
    expect((await me(member.token)).statusCode).toBe(401);
    // Their own password: this session stays, their other ones end.
    expect((await put(admin.user._id)).statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(200);
    expect((await me(adminLaptop)).statusCode).toBe(401);
  });

  it('refuses a token signed with the real key but without an expiry or with one 100 years ahead', async () => {
    const member = await createUser(t);
    const key = new TextEncoder().encode((await readFile(path.join(t.dataDir, 'jwt-secret'), 'utf8')).trim());
    // The real token's own claims (its user, its session), re-signed with another expiry.
    const { exp: _exp, iat: _iat, ...claims } = decodeJwt(member.token);
    const forge = (expiry?: string) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
      return (expiry ? jwt.setExpirationTime(expiry) : jwt).sign(key);
    };
    const noSession = await new SignJWT({ ...claims, jti: '0'.repeat(24) })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(key);
    expect((await me(member.token)).statusCode).toBe(200);
    expect((await me(await forge('1h'))).statusCode).toBe(200);
    expect((await me(await forge())).statusCode).toBe(401);
    expect((await me(await forge('100y'))).statusCode).toBe(401);
    expect((await me(noSession)).statusCode).toBe(401);
  });

  it('keeps each session in the store with its browser, address and expiry, and no token', async () => {
    const member = await createUser(t);
    const sessions = await t.store.collection<SessionDoc>('sessions').find({ userId: member.user._id });
    expect(sessions).toHaveLength(1);
    const { jti, exp } = decodeJwt(member.token);
    expect(sessions[0]).toMatchObject({ _id: jti, ip: '127.0.0.1', userAgent: 'lightMyRequest' });
    expect(sessions[0]!.expiresAt.getTime()).toBe(exp! * 1000);
    expect(JSON.stringify(sessions)).not.toContain(member.token);
  });
});

describe('expired sessions', () => {
  it('are refused, and removed when the server starts', async () => {
    const member = await createUser(t);
    const { jti } = decodeJwt(member.token);
    await t.store
      .collection<SessionDoc>('sessions')
      .updateById(jti!, { expiresAt: new Date(Date.now() - 1000) });
    expect((await me(member.token)).statusCode).toBe(401);
    const restarted = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' }),
      store: t.store,
    });
    try {
      expect(await t.store.collection('sessions').findById(jti!)).toBeNull();
    } finally {
      await restarted.close();
    }
  });
});

describe('last seen', () => {
  it('is not written on every request, only once it is a few minutes old', async () => {
    const member = await createUser(t);
    const sessions = t.store.collection<SessionDoc>('sessions');
    const { jti } = decodeJwt(member.token);
    const before = (await sessions.findById(jti!))!;
    for (let i = 0; i < 3; i++) expect((await me(member.token)).statusCode).toBe(200);
    expect((await sessions.findById(jti!))!.updatedAt).toEqual(before.updatedAt);

    const longAgo = new Date(Date.now() - 6 * 60 * 1000);
    await sessions.updateById(jti!, { lastSeenAt: longAgo });
    expect((await me(member.token)).statusCode).toBe(200);
    expect((await sessions.findById(jti!))!.lastSeenAt.getTime()).toBeGreaterThan(longAgo.getTime());
  });
});

describe('instances on one database with different secrets', () => {
  it('refuse each other’s tokens, and say in the log that JWT_SECRET must be the same', async () => {
    const member = await createUser(t);
    const warnings: string[] = [];
    const stream = {
      write(line: string) {
        const entry = JSON.parse(line) as { level: number; msg: string };
        if (entry.level === 40) warnings.push(entry.msg);
      },
    };
    const otherDir = await mkdtemp(path.join(tmpdir(), 'other-instance-'));
    const other = await buildApp({
      config: loadConfig({ DATA_DIR: otherDir, JWT_SECRET: 'another-instance-secret-0123456789abcdef' }),
      store: t.store,
      logger: { level: 'warn', stream },
    });
    try {
      const elsewhere = () =>
        other.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(member.token) });
      expect((await elsewhere()).statusCode).toBe(401);
      expect(warnings.filter((w) => w.includes('JWT_SECRET'))).toHaveLength(1);
      // Once a minute at most.
      expect((await elsewhere()).statusCode).toBe(401);
      expect(warnings.filter((w) => w.includes('JWT_SECRET'))).toHaveLength(1);
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });
});
