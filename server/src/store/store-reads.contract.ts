import { beforeEach, expect, it } from 'vitest';
import { type Collection, DuplicateKeyError, type StoredDoc } from './store';

export interface Thing extends StoredDoc {
  name: string;
  email: string;
  score: number;
  tags?: string[];
  note?: string;
}

/**
 * The reads of the store contract: sorts and pages (far pages included), counts, filters, text
 * search and batches. Called inside describeStoreContract, on a fresh collection per test.
 */
export function describeReadsContract(collection: () => Collection<Thing>) {
  let things: Collection<Thing>;
  beforeEach(() => {
    things = collection();
  });

  const seed = async () => {
    for (const [i, name] of ['delta', 'alpha', 'charlie', 'bravo'].entries()) {
      await things.insertOne({ name, email: `${name}@example.com`, score: i * 10 });
    }
  };

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
}
