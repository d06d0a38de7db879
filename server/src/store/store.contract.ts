import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeCountersContract } from './counters.contract';
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

    it('gives far pages of a paged order exactly as slices of the whole order, through inserts, changes and deletes', async () => {
      // Ties (ten scores) and documents without the field (missing sorts first).
      await things.insertMany(
        Array.from({ length: 700 }, (_, i) => ({
          name: `n${i}`,
          email: `t${i}@example.com`,
          ...(i % 50 === 7 ? {} : { score: i % 10 }),
        })) as Thing[],
      );
      await things.ensureIndex({ field: 'score', paged: true });
      const expectPagesAsWhole = async () => {
        for (const direction of [1, -1] as const) {
          const sort = { score: direction, _id: direction };
          const whole = (await things.find({}, { sort })).map((t) => t._id);
          for (const skip of [0, 201, 333, 350, whole.length - 10, whole.length - 3, whole.length]) {
            const page = await things.find({}, { sort, skip, limit: 25 });
            expect(
              page.map((t) => t._id),
              `score ${direction} from ${skip}`,
            ).toEqual(whole.slice(skip, skip + 25));
          }
        }
      };
      await expectPagesAsWhole();
      const some = await things.find({}, { sort: { name: 1 }, limit: 120 });
      for (const [i, thing] of some.entries()) {
        if (i % 3 === 0) await things.deleteById(thing._id);
        else await things.updateById(thing._id, { score: i % 2 ? undefined : 100 + i });
      }
      await things.insertOne({ name: 'late', email: 'late@example.com', score: 5 });
      await expectPagesAsWhole();
    });

    it('counts up to a limit when asked: the exact count below it, the limit itself at or above it', async () => {
      await seed();
      await things.ensureIndex({ field: 'name', search: true });
      expect(await things.count({}, { limit: 3 })).toBe(3);
      expect(await things.count({}, { limit: 10 })).toBe(4);
      for (const [text, matches] of [
        ['A', 4],
        ['ha', 2],
        ['lph', 1],
      ] as const) {
        const filter = { $or: [{ name: { $contains: text } }, { email: { $contains: text } }] };
        for (const limit of [1, 2, 3, 5])
          expect(await things.count(filter, { limit }), `${text} up to ${limit}`).toBe(
            Math.min(matches, limit),
          );
        expect(await things.count(filter)).toBe(matches);
      }
    });

    it('filters with $contains, $or, $in, $nin, $ne, $exists and comparisons', async () => {
      await seed();
      const names = async (filter: Record<string, unknown>) =>
        (await things.find(filter, { sort: { name: 1 } })).map((t) => t.name);
      expect(await names({ name: { $contains: 'LPH' } })).toEqual(['alpha']);
      expect(await names({ $or: [{ name: 'bravo' }, { email: { $contains: 'delta' } }] })).toEqual([
        'bravo',
        'delta',
      ]);
      expect(await names({ name: { $nin: ['alpha', 'bravo'] } })).toEqual(['charlie', 'delta']);
      expect(await names({ note: { $exists: true } })).toEqual([]);
      expect(await things.count({ note: { $exists: false } })).toBe(4);
      expect(await names({ name: { $in: ['charlie', 'zulu'] } })).toEqual(['charlie']);
      expect(await names({ name: { $ne: 'charlie' }, score: { $gte: 20 } })).toEqual(['bravo']);
      expect(await names({ score: { $lt: 10 } })).toEqual(['delta']);
      expect(await things.count({ score: { $gt: 0 } })).toBe(3);
      expect(await things.count()).toBe(4);
    });

    for (const indexed of [false, true]) {
      it(`$contains finds text anywhere, in any letter case, taken literally (${indexed ? 'with' : 'without'} a search index)`, async () => {
        if (indexed) await things.ensureIndex({ field: 'name', search: true });
        for (const [i, name] of [
          'Zoë O’Brien',
          'a.*b (literal)',
          'ÉMILE Dupont',
          '100% sure_thing',
          'ab',
        ].entries())
          await things.insertOne({ name, email: `p${i}@example.com`, score: i });
        const found = async (text: string) =>
          (await things.find({ name: { $contains: text } }, { sort: { score: 1 } })).map((t) => t.name);
        expect(await found('zoË')).toEqual(['Zoë O’Brien']);
        expect(await found('émile dup')).toEqual(['ÉMILE Dupont']);
        expect(await found('.*')).toEqual(['a.*b (literal)']);
        expect(await found('a.*b (')).toEqual(['a.*b (literal)']);
        expect(await found('.*x')).toEqual([]);
        expect(await found('0% s')).toEqual(['100% sure_thing']);
        expect(await found('e_t')).toEqual(['100% sure_thing']);
        expect(await found('%')).toEqual(['100% sure_thing']);
        expect(await found('AB')).toEqual(
          ['a.*b (literal)', 'ab'].filter((n) => n.toLowerCase().includes('ab')),
        );
        expect(await found('"')).toEqual([]);
        expect(await things.count({ name: { $contains: 'o' } })).toBe(2);
        // The index follows every change.
        const zoe = (await things.findOne({ name: 'Zoë O’Brien' }))!;
        await things.updateById(zoe._id, { name: 'Renamed' });
        expect(await found('zoë')).toEqual([]);
        expect(await found('named')).toEqual(['Renamed']);
        await things.deleteById(zoe._id);
        expect(await found('named')).toEqual([]);
      });
    }

    it('keeps exact counts per value of a counted field through every kind of write', async () => {
      await things.ensureIndex({ field: 'note', counted: true });
      const a = await things.insertOne({ name: 'a', email: 'a@example.com', score: 1, note: 'red' });
      await things.insertMany([
        { name: 'b', email: 'b@example.com', score: 2, note: 'red' },
        { name: 'c', email: 'c@example.com', score: 3, note: 'blue' },
        { name: 'd', email: 'd@example.com', score: 4 },
      ]);
      expect([await things.count({ note: 'red' }), await things.count({ note: 'blue' })]).toEqual([2, 1]);
      await things.updateById(a._id, { note: 'blue' });
      expect([await things.count({ note: 'red' }), await things.count({ note: 'blue' })]).toEqual([1, 2]);
      await expect(
        things.insertOne({ name: 'x', email: 'a@example.com', score: 9, note: 'red' }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await things.deleteById(a._id);
      expect([
        await things.count({ note: 'red' }),
        await things.count({ note: 'blue' }),
        await things.count(),
      ]).toEqual([1, 1, 3]);
      expect(await things.count({ note: 'green' })).toBe(0);
    });

    it('gives every matching document in order, a batch at a time', async () => {
      await things.insertMany(
        Array.from({ length: 25 }, (_, i) => ({
          name: `n${String(i).padStart(2, '0')}`,
          email: `${i}@x.org`,
          score: i % 3,
        })),
      );
      const batches: Thing[][] = [];
      for await (const batch of things.findInBatches(
        { score: { $ne: 1 } },
        { sort: { name: -1 }, batchSize: 4 },
      ))
        batches.push(batch);
      expect(batches.map((b) => b.length)).toEqual([4, 4, 4, 4, 1]);
      const all = batches.flat();
      expect(all.map((t) => t.name)).toEqual(
        Array.from({ length: 25 }, (_, i) => i)
          .filter((i) => i % 3 !== 1)
          .reverse()
          .map((i) => `n${String(i).padStart(2, '0')}`),
      );
      expect(all[0]!.createdAt).toBeInstanceOf(Date);
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
