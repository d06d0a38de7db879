import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from './store';

interface Thing extends StoredDoc {
  name: string;
  email: string;
  score: number;
  tags?: string[];
  note?: string;
}

/**
 * The behaviour every Store adapter must have. Run against the embedded store always and
 * against MongoDB whenever MONGODB_URI is set (see mongo-store.test.ts).
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

    const seed = async () => {
      for (const [i, name] of ['delta', 'alpha', 'charlie', 'bravo'].entries()) {
        await things.insertOne({ name, email: `${name}@example.com`, score: i * 10 });
      }
    };

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

    it('finds with sort, skip and limit in both directions', async () => {
      await seed();
      const asc = await things.find({}, { sort: { name: 1 } });
      expect(asc.map((t) => t.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      const page = await things.find({}, { sort: { name: -1 }, skip: 1, limit: 2 });
      expect(page.map((t) => t.name)).toEqual(['charlie', 'bravo']);
    });

    it('filters with $regex, $or, $in, $ne and comparisons', async () => {
      await seed();
      const names = async (filter: Record<string, unknown>) =>
        (await things.find(filter, { sort: { name: 1 } })).map((t) => t.name);
      expect(await names({ name: { $regex: /^ALP/i } })).toEqual(['alpha']);
      expect(await names({ $or: [{ name: 'bravo' }, { email: { $regex: /delta/ } }] })).toEqual([
        'bravo',
        'delta',
      ]);
      expect(await names({ name: { $in: ['charlie', 'zulu'] } })).toEqual(['charlie']);
      expect(await names({ name: { $ne: 'charlie' }, score: { $gte: 20 } })).toEqual(['bravo']);
      expect(await names({ score: { $lt: 10 } })).toEqual(['delta']);
      expect(await things.count({ score: { $gt: 0 } })).toBe(3);
      expect(await things.count()).toBe(4);
    });

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

    it('returns copies: changing a result does not change the store', async () => {
      const thing = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1, tags: ['one'] });
      thing.tags?.push('two');
      const found = await things.findById(thing._id);
      found!.name = 'changed';
      expect(await things.findById(thing._id)).toMatchObject({ name: 'a', tags: ['one'] });
    });
  });
}
