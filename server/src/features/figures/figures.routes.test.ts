import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';
import type { FigureDayDoc } from './figure-days.repository';

/**
 * The members' figures as the owner reads them: kept as members sign up, change tier and are
 * deleted, filled at start from members already there, refused to anyone but an administrator
 * and for a period that makes no sense.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
});
afterEach(() => t.close());

const today = () => new Date().toISOString().slice(0, 10);
const period = () => `from=${today()}&to=${today()}`;
const members = async (query = period(), token = admin.token) =>
  t.app.inject({ method: 'GET', url: `/api/admin/figures/members?${query}`, headers: bearer(token) });
const signUp = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'New member', email, password: 'long-enough-1' },
  });

describe('members over time', () => {
  it('counts sign-ups, upgrades, cancellations and deletions of today as they happen', async () => {
    expect((await signUp('ann@example.com')).statusCode).toBe(201);
    expect((await signUp('bob@example.com')).statusCode).toBe(201);
    const users = t.store.collection<UserDoc>('users');
    const ann = (await users.findOne({ email: 'ann@example.com' }))!;
    const bob = (await users.findOne({ email: 'bob@example.com' }))!;
    const edit = async (id: string, membershipTier: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${id}`,
        headers: await confirmed(t, admin.token),
        payload: { membershipTier },
      });
    expect((await edit(ann._id, 'paid')).statusCode).toBe(200);
    expect((await edit(bob._id, 'paid')).statusCode).toBe(200);
    expect((await edit(bob._id, 'free')).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${bob._id}`,
      headers: await confirmed(t, admin.token),
    });
    expect(removed.statusCode).toBe(200);

    const response = await members();
    expect(response.statusCode).toBe(200);
    const { period: day, previous, points } = response.json().data;
    expect(day).toEqual({ total: 1, paid: 1, free: 0, signups: 2, upgrades: 2, cancellations: 1 });
    // Yesterday nobody was there yet: the administrator is no member.
    expect(previous).toMatchObject({ total: 0, paid: 0, free: 0 });
    expect(points).toHaveLength(1);
  });

  it('is filled at start from the members already there', async () => {
    const users = t.store.collection<UserDoc>('users');
    await users.insertMany([
      {
        name: 'Old',
        email: 'old@example.com',
        password: 'x',
        role: 'user',
        membershipTier: 'paid',
        tierSource: 'complimentary',
        status: 'active',
        createdAt: new Date('2025-01-10T10:00:00Z'),
        paidSince: new Date('2025-02-01T10:00:00Z'),
      },
      {
        name: 'Older',
        email: 'older@example.com',
        password: 'x',
        role: 'user',
        membershipTier: 'free',
        status: 'active',
        createdAt: new Date('2025-01-20T10:00:00Z'),
      },
    ]);
    // The roll-ups of this app were filled at its start (empty then): a new app on emptied ones.
    const days = t.store.collection<FigureDayDoc>('figure_days');
    for (const doc of await days.find({})) await days.deleteById(doc._id);
    await t.app.close();
    const { buildApp } = await import('../../app');
    const { loadConfig } = await import('../../settings/config');
    const again = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' }),
      store: t.store,
    });
    await again.ready();
    t.app = again;
    const january = (await members('from=2025-01-01&to=2025-02-28&step=month')).json().data;
    expect(january.points).toEqual([
      { start: '2025-01-01', total: 2, paid: 0, free: 2, signups: 2, upgrades: 0, cancellations: 0 },
      { start: '2025-02-01', total: 2, paid: 1, free: 1, signups: 0, upgrades: 1, cancellations: 0 },
    ]);
  });

  it('refuses a period that ends before it starts, or longer than ten years, counting nothing', async () => {
    const backwards = await members('from=2026-03-02&to=2026-03-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('The period ends before it starts.');
    const long = await members('from=2000-01-01&to=2026-03-01');
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('A period spans at most ten years.');
  });

  it('is the administrators’ alone', async () => {
    const member = await createUser(t);
    expect((await members(period(), member.token)).statusCode).toBe(403);
    const stranger = await t.app.inject({ method: 'GET', url: `/api/admin/figures/members?${period()}` });
    expect(stranger.statusCode).toBe(401);
  });
});
