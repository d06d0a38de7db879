import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUsers } from '../../../../scripts/demo/users';
import { sortSpec } from '../../features/admin-users/user-list.service';
import { type UserDoc, UsersRepository } from '../../features/users/users.repository';
import type { Store } from '../store';
import { fieldSql } from './query';
import { openEmbeddedStore, SQLITE_FILE } from './store';

const SORTS = ['name', 'email', 'role', 'membershipTier', 'status', 'createdAt'] as const;
const PAGE = 25;

/**
 * Far pages come from anchors (every few keys of each sort order, with counts kept by triggers):
 * every page must hold exactly the rows a plain ORDER BY ... LIMIT ... OFFSET over the same
 * table gives, after inserts, changes of the sort key and deletes. The anchors are laid every 16
 * keys here, so that buckets split and fold many times over a few thousand members.
 */
describe('far pages of the user list from anchors', () => {
  let home: string;
  let store: Store;
  let users: UsersRepository;
  let plain: Database.Database;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'store-anchors-'));
    store = await openEmbeddedStore(home, () => undefined, { anchorSpacing: 16 });
    users = new UsersRepository(store);
    plain = new Database(path.join(home, 'db', SQLITE_FILE), { readonly: true });
  });
  afterAll(async () => {
    plain?.close();
    await store?.close();
    await rm(home, { recursive: true, force: true });
  });

  /** The page as a plain ORDER BY with OFFSET over the whole table reads it. */
  function plainPage(sortBy: string, order: 'asc' | 'desc', skip: number): string[] {
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT id FROM users ORDER BY ${fieldSql(sortBy)} ${direction}, id ${direction} LIMIT ? OFFSET ?`;
    return plain.prepare(sql).pluck().all(PAGE, skip) as string[];
  }

  async function expectEveryPageAsPlain(): Promise<void> {
    const total = await users.count();
    for (const sortBy of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        for (let skip = 0; skip < total + PAGE; skip += PAGE) {
          const page = await users.find({}, { sort: sortSpec(sortBy, order), skip, limit: PAGE });
          expect(
            page.map((user) => user._id),
            `${sortBy} ${order} from ${skip}`,
          ).toEqual(plainPage(sortBy, order, skip));
        }
      }
    }
  }

  it('gives the rows of a plain ORDER BY/OFFSET on every page of every order, with ties, after inserts, changes and deletes', async () => {
    // Two fixed instants: hundreds of members share each createdAt, as role, tier and status tie.
    const now = Date.parse('2026-01-01T00:00:00Z');
    const seeded = demoUsers(0, 2000, 'hash', now).map((user, i) => ({
      ...user,
      createdAt: new Date(now - (i % 3) * 1000),
      role: i % 9 === 0 ? ('admin' as const) : ('user' as const),
    }));
    // Members already there when the indexes are made: the anchors are laid over them.
    await users.insertMany(seeded);
    await users.init();
    await expectEveryPageAsPlain();

    // Inserted one by one: into the middle of every order, and past the last anchor.
    for (const user of demoUsers(5000, 200, 'hash', now)) await users.create(user);
    // Sort keys changed: names moved to either end and to the middle, statuses, tiers and roles flipped.
    const all = await users.find({}, { sort: sortSpec('createdAt', 'asc') });
    for (const [i, user] of all.entries()) {
      if (i % 8 === 0) {
        const changes: Partial<UserDoc> = {
          name: ['Aaron Aa', 'Zz Top', 'Mia Kim'][i % 3]!,
          status: user.status === 'active' ? 'suspended' : 'active',
          membershipTier: user.membershipTier === 'free' ? 'paid' : 'free',
        };
        if (i % 10 === 0) changes.role = user.role === 'user' ? 'admin' : 'user';
        if (i % 15 === 0) changes.email = `changed.${i}@example.com`;
        await users.update(user._id, changes);
      }
    }
    await expectEveryPageAsPlain();

    // Deleted: a long run of one order's first keys (buckets fold), and every fourth member.
    const byName = await users.find({}, { sort: sortSpec('name', 'asc') });
    for (const user of byName.slice(0, 300)) await users.delete(user._id);
    const rest = await users.find({}, { sort: sortSpec('email', 'asc') });
    for (const [i, user] of rest.entries()) if (i % 4 === 0) await users.delete(user._id);
    await expectEveryPageAsPlain();

    // The numbers the anchors keep add up to the members left, for every order.
    const total = await users.count();
    const sums = plain
      .prepare(`SELECT field, sum(n) AS n FROM "$anchors" WHERE collection = 'users' GROUP BY field`)
      .all() as Array<{ field: string; n: number }>;
    expect(Object.fromEntries(sums.map((row) => [row.field, row.n]))).toEqual(
      Object.fromEntries(SORTS.map((field) => [field, total])),
    );
  }, 120_000);
});
