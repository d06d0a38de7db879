import { USERS_PAGE_SIZE } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

let t: TestApp;
let admin: { user: UserDoc; token: string };
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { name: 'Owner', email: 'owner@example.com', role: 'admin' });
});
afterEach(() => t.close());

const list = (query = '', token = admin.token) =>
  t.app.inject({ method: 'GET', url: `/api/admin/users${query}`, headers: bearer(token) });
const names = async (query: string) => (await list(query)).json().data.map((u: PublicUser) => u.name);

/** Users straight into the store with chosen fields and creation times, oldest first. */
async function seed(rows: Array<Partial<UserDoc>>): Promise<void> {
  const base = Date.UTC(2025, 0, 1);
  await t.store.collection<UserDoc>('users').insertMany(
    rows.map((row, i) => ({
      name: `Seeded ${i}`,
      email: `seeded${i}@example.com`,
      password: 'not-a-real-hash',
      role: 'user' as const,
      membershipTier: 'free' as const,
      status: 'active' as const,
      tokenVersion: 0,
      createdAt: new Date(base + i * 60_000),
      updatedAt: new Date(base + i * 60_000),
      ...row,
    })),
  );
}

describe('GET /api/admin/users', () => {
  it('answers the newest users first, a page at a time, with totalPages and currentPage', async () => {
    await seed(Array.from({ length: 2 * USERS_PAGE_SIZE + 3 }, () => ({})));
    const first = (await list()).json();
    expect(first).toMatchObject({
      success: true,
      currentPage: 1,
      totalPages: 3,
      total: 2 * USERS_PAGE_SIZE + 4,
    });
    expect(first.data).toHaveLength(USERS_PAGE_SIZE);
    // The owner was created just now, after every seeded (2025) user.
    expect(first.data[0].name).toBe('Owner');
    expect(first.data[1].name).toBe(`Seeded ${2 * USERS_PAGE_SIZE + 2}`);

    const third = (await list('?page=3')).json();
    expect(third.currentPage).toBe(3);
    expect(third.data.map((u: PublicUser) => u.name)).toEqual([
      'Seeded 3',
      'Seeded 2',
      'Seeded 1',
      'Seeded 0',
    ]);

    const seen = new Set<string>();
    for (const page of [1, 2, 3]) for (const u of (await list(`?page=${page}`)).json().data) seen.add(u._id);
    expect(seen.size).toBe(2 * USERS_PAGE_SIZE + 4);
  });

  it('answers 10, 25, 50 or 100 users a page when asked, and refuses any other page size', async () => {
    await seed(Array.from({ length: 60 }, () => ({})));
    const page = (await list('?pageSize=25&page=3')).json();
    expect(page).toMatchObject({ currentPage: 3, totalPages: 3, total: 61 });
    expect(page.data).toHaveLength(11);
    expect((await list('?pageSize=100')).json().data).toHaveLength(61);
    expect((await list()).json().data).toHaveLength(USERS_PAGE_SIZE);
    for (const size of ['7', '1000', 'abc'])
      expect((await list(`?pageSize=${size}`)).statusCode, size).toBe(400);
  });

  it('never sends a password hash, token version or __v', async () => {
    const user = (await list()).json().data[0];
    expect(Object.keys(user).sort()).toEqual(
      ['_id', 'createdAt', 'email', 'membershipTier', 'name', 'role', 'status', 'updatedAt'].sort(),
    );
  });

  it('searches name or e-mail, case-insensitively, and counts only the matches', async () => {
    await seed([
      { name: 'Grace Hopper', email: 'grace@navy.mil' },
      { name: 'Alan Turing', email: 'alan@bletchley.uk' },
      { name: 'Someone Else', email: 'HOPPER.fan@example.com'.toLowerCase() },
    ]);
    expect(await names('?search=HOPPER')).toEqual(['Someone Else', 'Grace Hopper']);
    expect(await names('?search=bletchley')).toEqual(['Alan Turing']);
    const body = (await list('?search=nobody-matches-this')).json();
    expect(body).toMatchObject({ data: [], total: 0, totalPages: 1, currentPage: 1 });
  });

  it('treats search text literally, not as a regular expression', async () => {
    await seed([{ name: 'Dot Star .* Literal' }, { name: 'Plain Name' }, { name: 'a+b (c)' }]);
    expect(await names(`?search=${encodeURIComponent('.*')}`)).toEqual(['Dot Star .* Literal']);
    expect(await names(`?search=${encodeURIComponent('a+b (c)')}`)).toEqual(['a+b (c)']);
    expect(await names(`?search=${encodeURIComponent('[')}`)).toEqual([]);
  });

  it.each([
    ['name', 'asc', ['Ann', 'Bob', 'Cy', 'Owner']],
    ['name', 'desc', ['Owner', 'Cy', 'Bob', 'Ann']],
    ['email', 'asc', ['Cy', 'Bob', 'Ann', 'Owner']],
    ['email', 'desc', ['Owner', 'Ann', 'Bob', 'Cy']],
  ])('sorts by %s %s', async (sortBy, sortOrder, expected) => {
    await seed([
      { name: 'Bob', email: 'b@example.com' },
      { name: 'Ann', email: 'c@example.com' },
      { name: 'Cy', email: 'a@example.com' },
    ]);
    expect(await names(`?sortBy=${sortBy}&sortOrder=${sortOrder}`)).toEqual(expected);
  });

  it.each([
    ['role', 'admin', 'user'],
    ['membershipTier', 'free', 'paid'],
    ['status', 'active', 'suspended'],
  ] as const)('sorts by %s in both directions', async (field, low, high) => {
    await seed([
      { name: 'High', [field]: high },
      { name: 'Low', [field]: low },
    ]);
    const asc = (await list(`?sortBy=${field}&sortOrder=asc`)).json().data.map((u: PublicUser) => u[field]);
    const desc = (await list(`?sortBy=${field}&sortOrder=desc`)).json().data.map((u: PublicUser) => u[field]);
    expect(asc[0]).toBe(low);
    expect(asc.at(-1)).toBe(high);
    expect(desc[0]).toBe(high);
    expect(desc.at(-1)).toBe(low);
  });

  it('sorts by creation time oldest first when asked', async () => {
    await seed([{ name: 'First' }, { name: 'Second' }]);
    expect(await names('?sortBy=createdAt&sortOrder=asc')).toEqual(['First', 'Second', 'Owner']);
  });

  it.each([
    ['?sortBy=password', 'sortBy must be one of name, email, role, membershipTier, status, createdAt'],
    ['?sortBy=__proto__', 'sortBy must be one of name, email, role, membershipTier, status, createdAt'],
    ['?sortOrder=sideways', 'sortOrder must be asc or desc'],
    ['?page=0', 'page must be a whole number from 1'],
    ['?page=two', 'page must be a number'],
    [`?search=${'x'.repeat(101)}`, 'Search text must be at most 100 characters'],
  ])('refuses %s with a 400 and a message', async (query, message) => {
    const response = await list(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('counts a search up to 1,000 matches and says "more" past that, with the right page of rows either way', async () => {
    // 1,100 "Common" members, searched with text long enough for the trigram index and with two letters.
    await seed(Array.from({ length: 1100 }, (_, i) => ({ name: `Common ${i}`, email: `c${i}@example.com` })));
    for (const search of ['ommon', 'mm']) {
      const first = (await list(`?search=${search}&pageSize=100`)).json();
      expect(first, search).toMatchObject({ total: 1000, totalExact: false, totalPages: 10, currentPage: 1 });
      expect(first.data[0].name).toBe('Common 1099');
      // Past the limit, the count reaches the end of the asked page: still "more", never fewer pages than asked.
      const far = (await list(`?search=${search}&pageSize=100&page=11`)).json();
      expect(far, search).toMatchObject({ total: 1100, totalExact: true, totalPages: 11, currentPage: 11 });
      expect(far.data.map((u: PublicUser) => u.name)).toEqual(
        Array.from({ length: 100 }, (_, i) => `Common ${99 - i}`),
      );
      const tenth = (await list(`?search=${search}&pageSize=100&page=10`)).json();
      expect(tenth).toMatchObject({ total: 1000, totalExact: false, totalPages: 10 });
    }
    // Exactly counted below the limit, and the whole list's total is always exact.
    expect((await list('?search=Common 10')).json()).toMatchObject({ total: 111, totalExact: true });
    expect((await list()).json()).toMatchObject({ total: 1101, totalExact: true, totalPages: 111 });
  });

  it('answers an empty page past the end rather than an error', async () => {
    const body = (await list('?page=9')).json();
    expect(body).toMatchObject({ data: [], currentPage: 9, totalPages: 1, total: 1 });
  });
});

describe('GET /api/admin/stats', () => {
  it('counts all users, paid and free members (never administrators), new members, and follows changes', async () => {
    const stats = async () =>
      (await t.app.inject({ url: '/api/admin/stats', headers: bearer(admin.token) })).json();
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    await seed([
      { membershipTier: 'paid', createdAt: daysAgo(2) },
      { membershipTier: 'paid', createdAt: daysAgo(20) },
      { membershipTier: 'free' },
      { membershipTier: 'paid', role: 'admin', createdAt: daysAgo(1) },
    ]);
    // The owner made by createUser (an administrator, free, joined now) is in no member count either.
    expect(await stats()).toEqual({
      success: true,
      data: {
        totalUsers: 5,
        paidMembers: 2,
        freeMembers: 1,
        administrators: 2,
        newMembers7d: 1,
        newMembers30d: 2,
      },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: bearer(admin.token),
      payload: { name: 'New', email: 'new@example.com', password: 'secret1', membershipTier: 'paid' },
    });
    expect((await stats()).data).toMatchObject({
      totalUsers: 6,
      paidMembers: 3,
      freeMembers: 1,
      newMembers7d: 2,
    });
  });
});
