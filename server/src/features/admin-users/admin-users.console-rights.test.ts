import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

/**
 * What a stolen administrator token (no password confirmation) can no longer do with the
 * console's user management: make an administrator, or take one over by changing their e-mail
 * or password. With the password typed again the same changes go through.
 */
let t: TestApp;
let owner: { user: UserDoc; token: string; password: string };
let other: { user: UserDoc; token: string; password: string };
beforeEach(async () => {
  t = await createTestApp();
  owner = await createUser(t, { email: 'owner@example.com', role: 'admin' });
  other = await createUser(t, { email: 'second@example.com', role: 'admin', password: 'second-secret-1' });
});
afterEach(() => t.close());

/** As an attacker holding only the owner's sign-in token. */
const stolen = (method: 'POST' | 'PUT', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/admin${url}`, headers: bearer(owner.token), payload });
/** As the owner, who typed the password again. */
const asOwner = async (method: 'POST' | 'PUT', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/admin${url}`, headers: await confirmed(t, owner.token), payload });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const users = () => t.store.collection<UserDoc>('users');
const expectReauthRequired = (response: { statusCode: number; json(): { code?: string } }) => {
  expect(response.statusCode).toBe(403);
  expect(response.json().code).toBe('REAUTH_REQUIRED');
};

const newAdmin = { name: 'Mallory', email: 'mallory@example.com', password: 'mallory-pass-1', role: 'admin' };

describe('creating an administrator', () => {
  it.each(['active', 'suspended'])(
    'without the password confirmed is refused (REAUTH_REQUIRED) and creates nobody (%s)',
    async (status) => {
      expectReauthRequired(await stolen('POST', '/users', { ...newAdmin, status }));
      expect(await users().findOne({ email: 'mallory@example.com' })).toBeNull();
      expect(await users().count()).toBe(2);
      expect((await login('mallory@example.com', 'mallory-pass-1')).statusCode).toBe(400);
    },
  );

  it('with the password confirmed answers 201, and the new administrator reaches the console', async () => {
    const response = await asOwner('POST', '/users', newAdmin);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ email: 'mallory@example.com', role: 'admin' });
    const token = (await login('mallory@example.com', 'mallory-pass-1')).json().token;
    expect((await t.app.inject({ url: '/api/admin/stats', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('creating a member stays one click', async () => {
    const response = await stolen('POST', '/users', { ...newAdmin, role: 'user' });
    expect(response.statusCode).toBe(201);
  });
});

describe('promoting someone to administrator', () => {
  it.each([
    { role: 'admin' },
    { role: 'admin', status: 'suspended' },
    { role: 'admin', password: 'taken-over-1' },
  ])('without the password confirmed is refused and the member stays as they were: %j', async (payload) => {
    const member = await createUser(t, { email: 'member@example.com' });
    expectReauthRequired(await stolen('PUT', `/users/${member.user._id}`, payload));
    expect(await users().findById(member.user._id)).toMatchObject({ role: 'user', status: 'active' });
    expect((await login('member@example.com', member.password)).statusCode).toBe(200);
    const stats = await t.app.inject({ url: '/api/admin/stats', headers: bearer(member.token) });
    expect(stats.statusCode).toBe(403);
  });

  it('with the password confirmed makes them an administrator', async () => {
    const member = await createUser(t, { email: 'member@example.com' });
    const response = await asOwner('PUT', `/users/${member.user._id}`, { role: 'admin' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.role).toBe('admin');
    expect((await t.app.inject({ url: '/api/admin/stats', headers: bearer(member.token) })).statusCode).toBe(
      200,
    );
  });
});

describe("an administrator's e-mail and password", () => {
  it.each([
    { email: 'attacker@example.com' },
    { password: 'attacker-pass-1' },
    { email: 'attacker@example.com', password: 'attacker-pass-1' },
  ])(
    'of another administrator cannot be changed without the password confirmed, and they still sign in: %j',
    async (payload) => {
      expectReauthRequired(await stolen('PUT', `/users/${other.user._id}`, payload));
      const stored = await users().findById(other.user._id);
      expect(stored?.email).toBe('second@example.com');
      expect(stored?.password).toBe(other.user.password);
      expect((await login('second@example.com', 'second-secret-1')).statusCode).toBe(200);
      expect((await login('attacker@example.com', 'attacker-pass-1')).statusCode).toBe(400);
      expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(other.token) })).statusCode).toBe(
        200,
      );
    },
  );

  it.each([{ email: 'attacker@example.com' }, { password: 'attacker-pass-1' }])(
    'of the acting administrator cannot be changed through the console without it either: %j',
    async (payload) => {
      expectReauthRequired(await stolen('PUT', `/users/${owner.user._id}`, payload));
      expect((await login('owner@example.com', owner.password)).statusCode).toBe(200);
    },
  );

  it('change with the password confirmed, and the administrator then signs in with the new ones', async () => {
    const payload = { email: 'second-new@example.com', password: 'second-new-pass' };
    expect((await asOwner('PUT', `/users/${other.user._id}`, payload)).statusCode).toBe(200);
    expect((await login('second-new@example.com', 'second-new-pass')).statusCode).toBe(200);
    expect((await login('second@example.com', 'second-secret-1')).statusCode).toBe(400);
  });

  it('a suspended administrator cannot be made active again without it', async () => {
    await users().updateById(other.user._id, { status: 'suspended' });
    expectReauthRequired(await stolen('PUT', `/users/${other.user._id}`, { status: 'active' }));
    expect((await users().findById(other.user._id))?.status).toBe('suspended');
  });

  it('the name and tier of an administrator stay one click (the edit row sends the unchanged e-mail and role)', async () => {
    const response = await stolen('PUT', `/users/${other.user._id}`, {
      name: 'Second Owner',
      email: 'Second@Example.com',
      password: '',
      role: 'admin',
      membershipTier: 'paid',
      status: 'active',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ name: 'Second Owner', membershipTier: 'paid' });
  });
});

describe("a member's e-mail and password", () => {
  it('stay one click to change', async () => {
    const member = await createUser(t, { email: 'member@example.com' });
    const payload = { email: 'member-new@example.com', password: 'member-new-pass' };
    expect((await stolen('PUT', `/users/${member.user._id}`, payload)).statusCode).toBe(200);
    expect((await login('member-new@example.com', 'member-new-pass')).statusCode).toBe(200);
  });
});

describe('a demo user', () => {
  it('is never made an administrator, even with the password confirmed (its password is published)', async () => {
    const demo = await users().insertOne({
      name: 'Demo',
      email: 'demo@example.com',
      password: 'x',
      role: 'user',
      membershipTier: 'free',
      status: 'active',
      demo: true,
    } as UserDoc);
    const response = await asOwner('PUT', `/users/${demo._id}`, { role: 'admin' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/Demo users cannot be administrators/);
    expect((await users().findById(demo._id))?.role).toBe('user');
  });
});
