import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredDoc } from '../store';
import { openEmbeddedStore } from './store';

describe('the SQLite store’s search on common text', () => {
  it('gives the same sorted pages and counts whichever plan reads them: common, middling, rare and two-letter text', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'store-search-'));
    const store = await openEmbeddedStore(home, () => undefined);
    try {
      const people = store.collection<StoredDoc & { name: string; n: number }>('people');
      await people.ensureIndex({ field: 'name', search: true });
      await people.ensureIndex({ field: 'n' });
      // 2,200 share "smith" (common), 300 "middle", 20 "rare"; every 7th writes it in capitals.
      const names = Array.from({ length: 2520 }, (_, n) =>
        `${n < 2200 ? 'smith' : n < 2500 ? 'middle' : 'rare'} ${n}`.replace(/^\w+/, (w) =>
          n % 7 ? w : w.toUpperCase(),
        ),
      );
      await people.insertMany(names.map((name, n) => ({ name, n })));
      // Each text is read by another plan: the sort index with each row checked (common), the sort
      // index with a set of matches (middle), the matches sorted (rare), and for two letters, too
      // few for the trigram index, the sort index (common) or one pass over the table (rare).
      for (const [text, expected] of [
        ['MITH', 2200],
        ['iDDl', 300],
        ['rAr', 20],
        ['mI', 2500],
        ['Ra', 20],
      ] as const) {
        expect(await people.count({ name: { $contains: text } })).toBe(expected);
        expect(await people.count({ name: { $contains: text } }, { limit: 100 })).toBe(
          Math.min(expected, 100),
        );
        const matching = names
          .map((name, n) => ({ name, n }))
          .filter((p) => p.name.toLowerCase().includes(text.toLowerCase()))
          .map((p) => p.n)
          .reverse();
        for (const skip of [5, 250]) {
          const page = await people.find({ name: { $contains: text } }, { sort: { n: -1 }, skip, limit: 10 });
          expect(
            page.map((p) => p.n),
            `${text} from ${skip}`,
          ).toEqual(matching.slice(skip, skip + 10));
        }
      }
      // After a write, the list's bounded count of rare short text keeps the matches it found for the page.
      await people.insertOne({ name: 'RAre late', n: 3000 });
      expect(await people.count({ name: { $contains: 'Ra' } }, { limit: 1001 })).toBe(21);
      const page = await people.find({ name: { $contains: 'Ra' } }, { sort: { n: -1 }, limit: 3 });
      expect(page.map((p) => p.n)).toEqual([3000, 2519, 2518]);
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
