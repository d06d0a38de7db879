import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeCountersContract } from './counters.contract';
import { type Collection, DuplicateKeyError, type Store } from './store';
import { describeReadsContract, type Thing } from './store-reads.contract';

/**
 * The behaviour every Store adapter must have. Run against the embedded store always and
 * against MongoDB whenever MONGODB_URI is set (see mongo/store.mongodb.test.ts).
 */
export function describeStoreContract(
  label: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
) {
  describe(`Store contract: ${label}`, () => {
    let store: Store;
    let things: Collection<Thing>;
    let run = 0;

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    beforeEach(async () => {
      run += 1;
      things = store.collection<Thing>(`things_${Date.now()}_${run}`);
      await things.ensureIndex({ field: 'email', unique: true });
    });

    it('inserts with a string id and store-kept timestamps', async () => {
      const before = Date.now();
      const thing = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1 });
      expect(thing._id).toMatch(/^[0-9a-f]{24}$/);
      expect(thing.createdAt).toBeInstanceOf(Date);
      expect(thing.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(thing.updatedAt.getTime()).toBe(thing.createdAt.getTime());
      expect(await things.findById(thing._id)).toMatchObject({ name: 'a', email: 'a@example.com', score: 1 });
    });

    it('refuses a duplicate of a unique field with DuplicateKeyError and keeps the first', async () => {
      await things.insertOne({ name: 'first', email: 'same@example.com', score: 1 });
      await expect(
        things.insertOne({ name: 'second', email: 'same@example.com', score: 2 }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      const other = await things.insertOne({ name: 'other', email: 'other@example.com', score: 3 });
      await expect(things.updateById(other._id, { email: 'same@example.com' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await things.count({ email: 'same@example.com' })).toBe(1);
      expect((await things.findById(other._id))?.email).toBe('other@example.com');
    });

    describeReadsContract(() => things);

    it('updates fields, unsets undefined ones, bumps updatedAt and never moves createdAt', async () => {
      const thing = await things.insertOne({
        name: 'a',
        email: 'a@example.com',
        score: 1,
        note: 'temporary',
      });
      await new Promise((resolve) => setTimeout(resolve, 15));
      const updated = await things.updateById(thing._id, { score: 2, note: undefined });
      expect(updated).toMatchObject({ _id: thing._id, name: 'a', score: 2 });
      expect(updated?.note).toBeUndefined();
      expect(updated?.createdAt.getTime()).toBe(thing.createdAt.getTime());
      expect(updated!.updatedAt.getTime()).toBeGreaterThan(thing.updatedAt.getTime());
      expect(await things.updateById('0'.repeat(24), { score: 3 })).toBeNull();
    });

    it('updateOne is a compare-and-set: it changes nothing when the filter does not match', async () => {
      const thing = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1 });
      expect(await things.updateOne({ _id: thing._id, score: 99 }, { score: 5 })).toBeNull();
      expect((await things.updateOne({ _id: thing._id, score: 1 }, { score: 5 }))?.score).toBe(5);
      expect((await things.findById(thing._id))?.score).toBe(5);
    });

    it('deletes by id and says whether anything was deleted', async () => {
      const thing = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1 });
      expect(await things.deleteById(thing._id)).toBe(true);
      expect(await things.deleteById(thing._id)).toBe(false);
      expect(await things.findById(thing._id)).toBeNull();
    });

    it('inserts many at once, keeping given timestamps', async () => {
      const createdAt = new Date('2024-01-02T03:04:05Z');
      const count = await things.insertMany([
        { name: 'x', email: 'x@example.com', score: 1, createdAt, updatedAt: createdAt },
        { name: 'y', email: 'y@example.com', score: 2 },
      ]);
      expect(count).toBe(2);
      expect((await things.findOne({ name: 'x' }))?.createdAt.toISOString()).toBe(createdAt.toISOString());
      expect((await things.findOne({ name: 'y' }))?.createdAt).toBeInstanceOf(Date);
    });

    it('takes a given _id, refuses it a second time with DuplicateKeyError, and finds ids by $in', async () => {
      // Documents whose id is made from what they are about (a member's progress in a course).
      const id = 'ab'.repeat(12);
      await things.insertMany([{ _id: id, name: 'first', email: 'first@example.com', score: 1 }]);
      await expect(
        things.insertMany([{ _id: id, name: 'second', email: 'second@example.com', score: 2 }]),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await things.findById(id))?.name).toBe('first');
      const other = await things.insertOne({ name: 'other', email: 'other@example.com', score: 3 });
      const found = await things.find(
        { _id: { $in: [id, other._id, 'cd'.repeat(12)] } },
        { sort: { score: 1 } },
      );
      expect(found.map((t) => t.name)).toEqual(['first', 'other']);
    });

    it('loses no increment when many compare-and-set writers race on one document', async () => {
      const thing = await things.insertOne({ name: 'counter', email: 'counter@example.com', score: 0 });
      const increment = async () => {
        for (;;) {
          const current = (await things.findById(thing._id))!;
          if (await things.updateOne({ _id: thing._id, score: current.score }, { score: current.score + 1 }))
            return;
        }
      };
      await Promise.all(Array.from({ length: 20 }, increment));
      expect((await things.findById(thing._id))?.score).toBe(20);
    });

    it('returns copies: changing a result does not change the store', async () => {
      const thing = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1, tags: ['one'] });
      thing.tags?.push('two');
      const found = await things.findById(thing._id);
      found!.name = 'changed';
      expect(await things.findById(thing._id)).toMatchObject({ name: 'a', tags: ['one'] });
    });
  });
  describeCountersContract(label, open);
}
