import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Collection, type DocChanges, DuplicateKeyError, type Store, type StoredDoc } from './store';

interface Progress extends StoredDoc {
  member: string;
  rev: number;
  by?: number;
  positions: Record<string, number>;
}

/**
 * Writes asked for at once, as a busy site asks for them: the embedded store commits those of one
 * turn of the event loop together (sqlite/group-commit.ts), MongoDB takes them over its
 * connection pool. Either way each is answered alone, with its own result or refusal, once it is
 * made. Run by each adapter's tests (sqlite/store.test.ts; mongo/concurrent-writes.mongodb.test.ts
 * over the wire to the stand-in, and mongo/store.mongodb.test.ts on a real MongoDB).
 */
export function describeConcurrentWritesContract(
  label: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
) {
  describe(`Store contract, writes at once: ${label}`, () => {
    let store: Store;
    let docs: Collection<Progress>;
    let run = 0;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    beforeEach(() => {
      run += 1;
      docs = store.collection<Progress>(`writes_${Date.now()}_${run}`);
    });
    const id = (i: number) => `${run.toString(16).padStart(4, '0')}${i.toString(16).padStart(20, '0')}`;
    const seed = (count: number) =>
      docs.insertMany(
        Array.from({ length: count }, (_, i) => ({ _id: id(i), member: `m${i}`, rev: 0, positions: {} })),
      );

    it('answers each of many writes asked for at once with its own result, and each is there after', async () => {
      await seed(40);
      const [updated, inserted] = await Promise.all([
        Promise.all(Array.from({ length: 40 }, (_, i) => docs.updateById(id(i), { rev: i + 1 }))),
        Promise.all(
          Array.from({ length: 10 }, (_, i) => docs.insertOne({ member: `new${i}`, rev: 0, positions: {} })),
        ),
      ]);
      expect(updated.map((doc) => [doc?._id, doc?.rev])).toEqual(
        Array.from({ length: 40 }, (_, i) => [id(i), i + 1]),
      );
      expect(inserted.map((doc) => doc.member)).toEqual(Array.from({ length: 10 }, (_, i) => `new${i}`));
      expect(await docs.count()).toBe(50);
      for (let i = 0; i < 40; i++) expect((await docs.findById(id(i)))?.rev).toBe(i + 1);
    });

    it('lets exactly one of several compare-and-sets on one document asked at once win', async () => {
      await seed(1);
      const tries = await Promise.all(
        Array.from({ length: 10 }, (_, by) => docs.updateOne({ _id: id(0), rev: 0 }, { rev: 1, by })),
      );
      const winners = tries.filter((doc) => doc !== null);
      expect(winners).toHaveLength(1);
      expect(await docs.findById(id(0))).toMatchObject({ rev: 1, by: winners[0]!.by });
    });

    it('refuses a duplicate among inserts asked for at once, alone', async () => {
      const fresh = (i: number) => ({ _id: id(i), member: `m${i}`, rev: 0, positions: {} });
      const results = await Promise.allSettled([
        docs.insertMany([fresh(1)]),
        docs.insertMany([fresh(1)]),
        docs.insertMany([fresh(2)]),
      ]);
      // A server may run the two same inserts in either order: one wins, whichever.
      expect(
        results
          .slice(0, 2)
          .map((r) => r.status)
          .sort(),
      ).toEqual(['fulfilled', 'rejected']);
      expect(results[2]!.status).toBe('fulfilled');
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(DuplicateKeyError);
      expect((await docs.find({}, { sort: { _id: 1 } })).map((doc) => doc.member)).toEqual(['m1', 'm2']);
    });

    it('sets a field inside an object by its dotted path, keeping its siblings, for two such writes at once', async () => {
      await docs.insertMany([{ _id: id(0), member: 'ada', rev: 0, positions: { a: 1 } }]);
      const at = (lesson: string, seconds: number) =>
        ({ [`positions.${lesson}`]: seconds }) as DocChanges<Progress>;
      const [b, c] = await Promise.all([
        docs.updateById(id(0), at('b', 2)),
        docs.updateById(id(0), at('c', 3)),
      ]);
      expect(b?.positions.b).toBe(2);
      expect(c?.positions.c).toBe(3);
      expect((await docs.findById(id(0)))?.positions).toEqual({ a: 1, b: 2, c: 3 });
      expect(await docs.updateById(id(9), at('a', 1))).toBeNull();
    });
  });
}
