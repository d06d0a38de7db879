import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { TokenService } from '../sessions/token-service';
import { StoreLeases } from '../shared-state/store-lease';
import { type UserDoc, UsersRepository } from '../users/users.repository';
import { AdminUsersService } from './admin-users.service';

let t: TestApp;
let admin: { user: UserDoc; token: string };
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { name: 'Owner', email: 'owner@example.com', role: 'admin' });
});
afterEach(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin.token) =>
  t.app.inject({ method, url: `/api/admin${url}`, headers: bearer(token), payload });
/** The same with a fresh password confirmation, as the console sends for changes to administrators. */
const confirmedCall = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/admin${url}`, headers: await confirmed(t, admin.token), payload });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const stored = (id: string) => t.store.collection<UserDoc>('users').findById(id);

describe('POST /api/admin/users', () => {
  it('creates a user with the defaults role user, tier free, status active, who can then sign in', async () => {
    const response = await call('POST', '/users', {
      name: 'Ada',
      email: 'Ada@Example.com',
      password: 'secret1',
    });
    expect(response.statusCode).toBe(201);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      role: 'user',
      membershipTier: 'free',
      status: 'active',
    });
    expect(data.password).toBeUndefined();
    expect((await stored(data._id))?.password).toMatch(/^\$argon2id\$/);
    expect((await login('ada@example.com', 'secret1')).statusCode).toBe(200);
  });

  it('keeps the role, tier and status it is given, and ignores _id, __v and timestamps', async () => {
    // An administrator: the password confirmed, as for every change that gives console rights.
    const response = await confirmedCall('POST', '/users', {
      name: 'Boss',
      email: 'boss@example.com',
      password: 'secret1',
      role: 'admin',
      membershipTier: 'paid',
      status: 'suspended',
      _id: 'chosen-id',
      __v: 7,
      createdAt: '2000-01-01T00:00:00.000Z',
    });
    const data = response.json().data;
    expect(data).toMatchObject({ role: 'admin', membershipTier: 'paid', status: 'suspended' });
    expect(data._id).not.toBe('chosen-id');
    expect(new Date(data.createdAt).getFullYear()).toBeGreaterThan(2020);
    expect(await stored(data._id)).not.toHaveProperty('__v');
  });

  it('refuses a second user with the same e-mail in any letter case with a clear 409', async () => {
    const response = await call('POST', '/users', {
      name: 'Copy',
      email: 'OWNER@example.com',
      password: 'secret1',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('A user with this email already exists.');
  });

  it.each([
    [{ email: 'a@example.com', password: 'secret1' }, 'Name is required'],
    [{ name: 'A', password: 'secret1' }, 'Email is required'],
    [{ name: 'A', email: 'a@example.com' }, 'Password is required'],
    [{ name: 'A', email: 'a@example.com', password: '123' }, 'Password must be at least 6 characters'],
    [
      { name: 'A', email: 'a@example.com', password: 'secret1', role: 'root' },
      "role must be 'user' or 'admin'",
    ],
    [{ name: 'A', email: { $ne: null }, password: 'secret1' }, 'email must be a string'],
  ])('answers 400 for %j', async (payload, message) => {
    const response = await call('POST', '/users', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
});

describe('PUT /api/admin/users/:id', () => {
  it('changes role, tier, status, name and e-mail, and keeps the password when it is empty', async () => {
    const { user, password } = await createUser(t, { email: 'member@example.com' });
    // A promotion: the password confirmed, as for every change that gives console rights.
    const response = await confirmedCall('PUT', `/users/${user._id}`, {
      _id: 'other',
      __v: 3,
      name: 'Renamed',
      email: 'Renamed@Example.com',
      password: '',
      role: 'admin',
      membershipTier: 'paid',
      status: 'active',
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      _id: user._id,
      name: 'Renamed',
      email: 'renamed@example.com',
      role: 'admin',
      membershipTier: 'paid',
    });
    expect(data.createdAt).toBe(user.createdAt.toISOString());
    expect(new Date(data.updatedAt).getTime()).toBeGreaterThan(new Date('2020-01-01').getTime());
    expect((await login('renamed@example.com', password)).statusCode).toBe(200);
  });

  it("sets a new password, and the member's older sessions end", async () => {
    const { user, token } = await createUser(t, { email: 'member@example.com' });
    const response = await call('PUT', `/users/${user._id}`, { password: 'brand-new-pass' });
    expect(response.statusCode).toBe(200);
    expect((await login('member@example.com', 'brand-new-pass')).statusCode).toBe(200);
    expect((await login('member@example.com', 'correct-horse')).statusCode).toBe(400);
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it("keeps the acting administrator's own session when they change their own password", async () => {
    const response = await confirmedCall('PUT', `/users/${admin.user._id}`, { password: 'owner-new-pass' });
    expect(response.statusCode).toBe(200);
    const stats = await t.app.inject({ url: '/api/admin/stats', headers: bearer(admin.token) });
    expect(stats.statusCode).toBe(200);
  });

  it('refuses a too-short password and an e-mail that another user has', async () => {
    const { user } = await createUser(t, { email: 'member@example.com' });
    const short = await call('PUT', `/users/${user._id}`, { password: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 6 characters');
    const taken = await call('PUT', `/users/${user._id}`, { email: 'Owner@example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('A user with this email already exists.');
    expect((await stored(user._id))?.email).toBe('member@example.com');
  });

  it('answers 404 for an unknown user', async () => {
    const response = await call('PUT', '/users/000000000000000000000000', { name: 'Ghost' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('User not found.');
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it('deletes the user, who can no longer sign in', async () => {
    const { user, password } = await createUser(t, { email: 'member@example.com' });
    const response = await call('DELETE', `/users/${user._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'User deleted.' });
    expect(await stored(user._id)).toBeNull();
    expect((await login('member@example.com', password)).statusCode).toBe(400);
    expect((await call('DELETE', `/users/${user._id}`)).statusCode).toBe(404);
  });
});

describe('the last active administrator', () => {
  const LAST_ADMIN = /^This is the last active administrator\./;

  it.each([
    ['demoted', 'PUT', { role: 'user' }],
    ['suspended', 'PUT', { status: 'suspended' }],
  ] as const)('cannot be %s (409), and stays as they were', async (_what, method, payload) => {
    const response = await confirmedCall(method, `/users/${admin.user._id}`, payload);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(LAST_ADMIN);
    expect(await stored(admin.user._id)).toMatchObject({ role: 'admin', status: 'active' });
  });

  it('can be changed once another active administrator exists, but a suspended one does not count', async () => {
    const other = await createUser(t, { email: 'second@example.com', role: 'admin', status: 'suspended' });
    expect((await confirmedCall('PUT', `/users/${admin.user._id}`, { role: 'user' })).statusCode).toBe(409);
    expect((await confirmedCall('PUT', `/users/${other.user._id}`, { status: 'active' })).statusCode).toBe(
      200,
    );
    expect((await confirmedCall('PUT', `/users/${admin.user._id}`, { role: 'user' })).statusCode).toBe(200);
  });

  it('survives two administrators demoting each other at the same moment, in two server processes', async () => {
    const other = await createUser(t, { email: 'second@example.com', role: 'admin' });
    // Straight to the services, one per process (each with its own lease holder on the one store):
    // through HTTP the guard would usually refuse the later caller first.
    const tokens = new TokenService(new TextEncoder().encode('k'.repeat(32)));
    const process = () => {
      const leases = new StoreLeases(t.store);
      const sessions = new SessionsService(new SessionsRepository(t.store), tokens);
      return new AdminUsersService(new UsersRepository(t.store), sessions, leases);
    };
    const [first, second] = [process(), process()];
    const users = t.store.collection<UserDoc>('users');
    for (let round = 0; round < 20; round++) {
      await users.updateById(admin.user._id, { role: 'admin' });
      await users.updateById(other.user._id, { role: 'admin' });
      const results = await Promise.allSettled([
        first.update(
          other.user._id,
          { role: 'user' },
          { userId: admin.user._id, sessionId: 'a' },
          async () => undefined,
        ),
        second.update(
          admin.user._id,
          { role: 'user' },
          { userId: other.user._id, sessionId: 'b' },
          async () => undefined,
        ),
      ]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual(['fulfilled', 'rejected']);
      expect(await users.count({ role: 'admin', status: 'active' }), `round ${round}`).toBe(1);
    }
  });
});
