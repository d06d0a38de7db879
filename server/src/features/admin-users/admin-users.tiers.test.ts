import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

/**
 * Every tier the console sets goes through the payments feature's one tier function (the
 * Activity log says why a member is paid), and the server itself warns before an administrator
 * changes a tier Stripe manages.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
});
afterEach(() => t.close());

const stored = async (id: string) => (await t.store.collection<UserDoc>('users').findById(id))!;
const tierEntries = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/admin/activity?kind=membership.tier',
      headers: bearer(admin.token),
    })
  ).json().data as Array<{ summary: string; actorEmail: string; after: Record<string, unknown> }>;
const edit = async (id: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/users/${id}`,
    headers: await confirmed(t, admin.token),
    payload,
  });

describe('Add User with the paid tier', () => {
  it('records the tier as given by hand (complimentary), with paidSince and an Activity entry, like an edit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: bearer(admin.token),
      payload: { name: 'Gift', email: 'gift@example.com', password: 'long-enough-1', membershipTier: 'paid' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ membershipTier: 'paid', tierSource: 'complimentary' });
    const saved = await stored(response.json().data._id);
    expect(saved).toMatchObject({ membershipTier: 'paid', tierSource: 'complimentary' });
    expect(saved.paidSince).toBeInstanceOf(Date);
    const [entry] = await tierEntries();
    expect(entry).toMatchObject({
      actorEmail: 'owner@example.com',
      summary: 'gift@example.com made paid by hand (complimentary)',
      after: { membershipTier: 'paid', tierSource: 'complimentary' },
    });
  });

  it('leaves a free user without a tier entry', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: bearer(admin.token),
      payload: { name: 'Plain', email: 'plain@example.com', password: 'long-enough-1' },
    });
    expect(response.json().data).toMatchObject({ membershipTier: 'free' });
    expect(await tierEntries()).toEqual([]);
  });
});

describe('changing a tier Stripe manages', () => {
  async function subscriber(status: 'active' | 'past_due' | 'canceled' = 'active') {
    const member = await createUser(t, { email: `payer-${status}@example.com` });
    await t.store.collection<UserDoc>('users').updateById(member.user._id, {
      membershipTier: 'paid',
      tierSource: 'stripe',
      billing: { customerId: 'cus_1', subscriptionId: `sub_${status}`, status },
    });
    return member.user._id;
  }

  it('is refused with TIER_MANAGED_BY_STRIPE, nothing of the edit saved, until the administrator confirms', async () => {
    const id = await subscriber();
    const refused = await edit(id, { name: 'Renamed Too', membershipTier: 'free' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'TIER_MANAGED_BY_STRIPE',
      message: expect.stringContaining('does not cancel their subscription'),
    });
    expect(await stored(id)).toMatchObject({
      name: expect.not.stringMatching('Renamed'),
      membershipTier: 'paid',
    });

    const done = await edit(id, {
      name: 'Renamed Too',
      membershipTier: 'free',
      confirmManagedByStripe: true,
    });
    expect(done.statusCode).toBe(200);
    expect(await stored(id)).toMatchObject({
      name: 'Renamed Too',
      membershipTier: 'free',
      tierSource: 'admin',
    });
    expect((await tierEntries())[0]?.summary).toBe('payer-active@example.com made free by an administrator');
  });

  it('asks the same of a failing payment (past due still pays), not of an ended subscription nor a field left as it is', async () => {
    expect((await edit(await subscriber('past_due'), { membershipTier: 'free' })).json().code).toBe(
      'TIER_MANAGED_BY_STRIPE',
    );
    expect((await edit(await subscriber('canceled'), { membershipTier: 'free' })).statusCode).toBe(200);
    // The edit row sends every field: the tier as it is, with a new name, needs no confirmation.
    const id = await subscriber();
    expect((await edit(id, { name: 'Only The Name', membershipTier: 'paid' })).statusCode).toBe(200);
  });

  it('refuses a confirmation that is not true or false', async () => {
    const id = await subscriber();
    expect((await edit(id, { membershipTier: 'free', confirmManagedByStripe: 'yes' })).statusCode).toBe(400);
  });
});
