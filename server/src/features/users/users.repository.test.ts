import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { demoUsers } from '../../../../scripts/demo/users';
import { openEmbeddedStore, SQLITE_FILE } from '../../store/sqlite/store';
import { BILLING_FIELDS } from './billing-record';
import { UsersRepository } from './users.repository';

describe('adding members to the embedded store', () => {
  it('writes nothing to the indexes of fields they lack (billing, links), and every lookup and count still finds the ones that have them', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'users-sparse-'));
    try {
      const store = await openEmbeddedStore(home, () => undefined);
      const users = new UsersRepository(store);
      await users.init();
      await users.insertMany(demoUsers(0, 2000, 'hash'));
      const [payer, other] = await users.find({}, { limit: 2 });
      const observedAt = new Date();
      await users.update(payer!._id, {
        billing: { customerId: 'cus_1', subscriptionId: 'sub_1', status: 'active', observedAt },
      });
      await users.update(other!._id, { billing: { customerId: 'cus_2', status: 'past_due', observedAt } });
      expect((await users.find({ [BILLING_FIELDS.customerId]: 'cus_1' })).map((u) => u._id)).toEqual([
        payer!._id,
      ]);
      expect((await users.find({ [BILLING_FIELDS.subscriptionId]: 'sub_1' })).map((u) => u._id)).toEqual([
        payer!._id,
      ]);
      expect(await users.count({ [BILLING_FIELDS.status]: 'active' })).toBe(1);
      expect(await users.count({ [BILLING_FIELDS.status]: { $in: ['active', 'past_due'] } })).toBe(2);
      await users.update(other!._id, { billing: { customerId: 'cus_2', status: 'active', observedAt } });
      expect(await users.count({ [BILLING_FIELDS.status]: 'active' })).toBe(2);
      expect(await users.count({ [BILLING_FIELDS.status]: 'past_due' })).toBe(0);
      await users.delete(payer!._id);
      expect(await users.count({ [BILLING_FIELDS.status]: 'active' })).toBe(1);
      await store.close();

      // 1,999 members, 1 with billing: the indexes hold that one, not an entry per member.
      const db = new Database(path.join(home, 'db', SQLITE_FILE), { readonly: true });
      try {
        const entries = (index: string) =>
          (
            db
              .prepare("SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'")
              .get(index) as { n: number }
          ).n;
        expect({
          customerId: entries(`users$${BILLING_FIELDS.customerId}`),
          subscriptionId: entries(`users$${BILLING_FIELDS.subscriptionId}`),
          status: entries(`users$${BILLING_FIELDS.status}`),
          resetTokenHash: entries('users$resetTokenHash'),
          emailChangeTokenHash: entries('users$emailChangeTokenHash'),
        }).toEqual({
          customerId: 1,
          subscriptionId: 0,
          status: 1,
          resetTokenHash: 0,
          emailChangeTokenHash: 0,
        });
        // Fields every member has are indexed for every member, as before.
        expect(entries('users$status')).toBeGreaterThan(1900);
      } finally {
        db.close();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
