import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore } from './embedded-store';
import type { StoredDoc } from './store';
import { describeStoreContract } from './store.contract';

let dir = '';
describeStoreContract(
  'embedded',
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'store-contract-'));
    return openEmbeddedStore(dir);
  },
  () => rm(dir, { recursive: true, force: true }),
);

describe('the SQLite store’s search on common text', () => {
  it('gives the same sorted pages and counts whether the text is rare (search index, or one table pass when short) or common (sort index walked)', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'store-search-'));
    const store = await openEmbeddedStore(home, () => undefined);
    try {
      const people = store.collection<StoredDoc & { name: string; n: number }>('people');
      await people.ensureIndex({ field: 'name', search: true });
      await people.ensureIndex({ field: 'n' });
      // 2,500 share "smith" (common), 20 have "rare"; every 7th writes it in capitals.
      await people.insertMany(
        Array.from({ length: 2520 }, (_, n) => ({
          name: `${n < 2500 ? 'smith' : 'rare'} ${n}`.replace(/^\w+/, (w) => (n % 7 ? w : w.toUpperCase())),
          n,
        })),
      );
      // Two letters are too few for the trigram index: common ones walk the sort index, rare ones scan the table once.
      for (const [text, expected] of [
        ['MITH', 2500],
        ['rAr', 20],
        ['mI', 2500],
        ['Ra', 20],
      ] as const) {
        expect(await people.count({ name: { $contains: text } })).toBe(expected);
        expect(await people.count({ name: { $contains: text } }, { limit: 100 })).toBe(
          Math.min(expected, 100),
        );
        const page = await people.find(
          { name: { $contains: text } },
          { sort: { n: -1 }, skip: 5, limit: 10 },
        );
        const first = (expected === 2500 ? 2499 : 2519) - 5;
        expect(page.map((p) => p.n)).toEqual(Array.from({ length: 10 }, (_, i) => first - i));
      }
    } finally {
      await store.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('the SQLite store’s far pages', () => {
  it('gives every page, near either end and past it, exactly as the full sorted list would', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'store-pages-'));
    const store = await openEmbeddedStore(home, () => undefined);
    try {
      const items = store.collection<StoredDoc & { group: number; n: number }>('items');
      await items.ensureIndex({ field: 'group' });
      // Many ties in `group`: the id decides among them, in both directions.
      await items.insertMany(Array.from({ length: 1234 }, (_, n) => ({ group: n % 7, n })));
      for (const direction of [1, -1] as const) {
        const sort = { group: direction, _id: direction };
        const all = (await items.find({}, { sort })).map((item) => item._id);
        for (const skip of [0, 150, 250, 600, 617, 618, 1000, 1225, 1230, 1233, 1234, 2000]) {
          const page = (await items.find({}, { sort, skip, limit: 10 })).map((item) => item._id);
          expect(page, `skip ${skip}`).toEqual(all.slice(skip, skip + 10));
        }
        const even = (await items.find({ n: { $lt: 1000 } }, { sort })).map((item) => item._id);
        const far = (await items.find({ n: { $lt: 1000 } }, { sort, skip: 990, limit: 10 })).map(
          (item) => item._id,
        );
        expect(far).toEqual(even.slice(990));
      }
    } finally {
      await store.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
