import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  caseFold,
  compileFilter,
  compileSort,
  filterKey,
  firstInOrder,
  foldedValue,
  literalText,
  nedbModel,
} from './embedded-query';
import { prefixOf } from './embedded-snapshot';
import { openEmbeddedStore } from './embedded-store';
import type { Filter, SortSpec, Store, StoredDoc } from './store';

// Values of every kind a document field can hold, including the awkward ones.
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  7,
  -3.5,
  '',
  'Alpha',
  'alpha',
  'beta.*',
  'STRASSE ſ Straße',
  '\u212a kelvin',
  true,
  false,
  new Date('2025-01-01T00:00:00Z'),
  new Date('2024-06-01T00:00:00Z'),
  ['Alpha', 7],
  [],
  { nested: 'Alpha' },
];

function docs(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  VALUES.forEach((a, i) => {
    VALUES.forEach((b, j) => {
      const doc: Record<string, unknown> = {
        _id: `id-${String(i).padStart(2, '0')}-${String(j).padStart(2, '0')}`,
      };
      if (a !== undefined) doc.a = a;
      if (b !== undefined) doc.b = b;
      out.push(doc);
    });
  });
  return out;
}

const FILTERS: Filter[] = [
  {},
  { a: 'Alpha' },
  { a: 7 },
  { a: null },
  { a: true },
  { a: new Date('2025-01-01T00:00:00Z') },
  { a: /alp/i },
  { a: /ALPHA/i },
  { a: /beta\.\*/i },
  { a: { $regex: /pha/i } },
  { a: /sse/i },
  { a: /k/i },
  { a: /s/i },
  { $or: [{ a: /ALP/i }, { b: { $regex: /ET/i } }] },
  { a: { $regex: /^a/ } },
  { a: { $ne: 'Alpha' } },
  { a: { $ne: null } },
  { a: { $in: ['Alpha', 7, null] } },
  { a: { $nin: ['Alpha', 7] } },
  { a: { $lt: 7 } },
  { a: { $gte: 'alpha' } },
  { a: { $gt: new Date('2024-12-01T00:00:00Z') } },
  { a: { $lte: 0, $gte: -10 } },
  { a: { $exists: true } },
  { a: { $exists: false } },
  { a: 'Alpha', b: { $ne: 7 } },
  { $or: [{ a: /beta\.\*/ }, { b: 'alpha' }] },
  { $and: [{ a: { $exists: true } }, { b: { $in: [true, false] } }] },
  { $or: [{ a: { nested: 'Alpha' } }, { 'a.nested': 'Alpha' }] },
  { a: ['Alpha', 7] },
  { a: { $size: 2 } },
];

describe('the embedded fast paths', () => {
  const all = docs();

  it.each(FILTERS.map((f) => [filterKey(f) ?? 'unkeyable', f]))(
    'match exactly as nedb for %s',
    (_key, filter) => {
      const plain = compileFilter(filter as Filter);
      // And with folded columns, as the store compiles them.
      const columns = { folded: (field: string) => all.map((doc) => foldedValue(doc[field])) };
      const folded = compileFilter(filter as Filter, columns);
      all.forEach((doc, i) => {
        const expected = nedbModel.match(doc, filter);
        expect([doc._id, plain(doc, i), folded(doc, i)]).toEqual([doc._id, expected, expected]);
      });
    },
  );

  it.each<[SortSpec]>([[{ a: 1 }], [{ a: -1 }], [{ b: -1 }], [{ a: -1, _id: 1 }], [{ b: 1, a: -1 }]])(
    'sort exactly as a stable nedb sort for %j, whole and in part',
    (sort) => {
      const compare = compileSort(sort);
      const nedbOrder = [...all].sort((x, y) => {
        for (const [key, dir] of Object.entries(sort)) {
          const order =
            dir * nedbModel.compareThings(nedbModel.getDotValue(x, key), nedbModel.getDotValue(y, key));
          if (order !== 0) return order;
        }
        return 0;
      });
      for (const count of [1, 5, 10, 60, all.length])
        expect(firstInOrder(all, compare, count).map((d) => d._id)).toEqual(
          nedbOrder.slice(0, count).map((d) => d._id),
        );
    },
  );

  it('order text prefixes as the texts themselves, or call them equal', () => {
    const texts = [
      '',
      'a',
      'ab',
      'abc',
      'abd',
      'abcd',
      'B',
      'Ä',
      '\uffff',
      '\uffff\uffff\uffff',
      '😀',
      'z',
      'Zoë',
    ];
    for (const a of texts) {
      for (const b of texts) {
        const byPrefix = Math.sign(prefixOf(a) - prefixOf(b));
        const byText = a < b ? -1 : a > b ? 1 : 0;
        if (byPrefix !== 0) expect(byPrefix, `${a} vs ${b}`).toBe(byText);
        else expect(a.slice(0, 3)).toBe(b.slice(0, 3));
      }
    }
  });

  it('read plain-text patterns as text, and anything with syntax as not', () => {
    expect(literalText('beta\\.\\*')).toBe('beta.*');
    expect(literalText('a\\+b \\(c\\)\\/\\-')).toBe('a+b (c)/-');
    for (const pattern of ['a.b', '^a', 'a$', 'a*', 'a|b', '[a]', 'a{2}', '\\d', '\\w', '\\b', 'a\\']) {
      expect(literalText(pattern), pattern).toBeNull();
    }
  });

  it('fold text so that substring search agrees with a case-insensitive expression', () => {
    const texts = [
      'Straße',
      'STRASSE',
      'ſ',
      's',
      'S',
      '\u212a',
      'k',
      'K',
      'İstanbul',
      'ı',
      'i',
      'I',
      'ΣΑΣ',
      'σας',
      'ς',
      'ﬀ',
      'FF',
      'Øresund',
      'øre',
      'Émile',
      'émile',
      '😀x',
      'µ',
      'Μ',
      'ǅ',
      'ǆ',
    ];
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    for (const haystack of texts) {
      for (const needle of texts) {
        const expected = new RegExp(literal(needle), 'i').test(haystack);
        expect(caseFold(haystack).includes(caseFold(needle)), `${needle} in ${haystack}`).toBe(expected);
      }
    }
  });

  it('key equal filters alike and different ones apart, and refuse stateful regular expressions', () => {
    expect(filterKey({ a: /x/i, b: [1, 'x'] })).toBe(filterKey({ a: /x/i, b: [1, 'x'] }));
    expect(filterKey({ a: /x/i })).not.toBe(filterKey({ a: /x/ }));
    expect(filterKey({ a: '1' })).not.toBe(filterKey({ a: 1 }));
    expect(filterKey({ a: null })).not.toBe(filterKey({ a: undefined }));
    expect(filterKey({ a: /x/g })).toBeNull();
  });
});

interface Thing extends StoredDoc {
  name: string;
  score: number;
}

describe('the embedded store with its snapshot', () => {
  let dir = '';
  let store: Store;
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers sorted finds and counts like plain nedb through inserts, updates, deletes and refused writes', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'store-snapshot-'));
    store = await openEmbeddedStore(dir);
    const things = store.collection<Thing>('things');
    await things.ensureIndex({ field: 'name', unique: true });
    const reference = new Datastore<Thing>();

    const check = async () => {
      const plain = await reference.findAsync({}).sort({ score: -1, _id: 1 });
      for (const [skip, limit] of [
        [0, 3],
        [2, 4],
        [0, 0],
      ] as const) {
        const fast = await things.find({}, { sort: { score: -1, _id: 1 }, skip, limit: limit || undefined });
        expect(fast.map((t) => t.name)).toEqual(
          plain.slice(skip, limit ? skip + limit : undefined).map((t) => t.name),
        );
      }
      expect(await things.count({ score: { $gte: 5 } })).toBe(
        await reference.countAsync({ score: { $gte: 5 } }),
      );
      // Text search runs on folded columns that must follow every write too.
      for (const search of [/HING 1/i, /renamed/i, /bulk/i, /./]) {
        const found = await things.find({ name: search }, { sort: { name: 1 } });
        expect(found.map((t) => t.name)).toEqual(
          (await reference.findAsync({ name: search }).sort({ name: 1 })).map((t) => t.name),
        );
      }
    };

    // The snapshot (and its folded columns) is built by the first read, then kept in step by each write.
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Names start differently, so that the sort prefixes built from them differ too.
      const thing = await things.insertOne({ name: `${'abcdefghijkl'[i]}-thing ${i}`, score: i % 7 });
      ids.push(thing._id);
      await reference.insertAsync({ ...thing });
    }
    await check();
    await things.insertMany([
      { name: 'bulk a', score: 9 },
      { name: 'bulk b', score: 1 },
    ]);
    for (const t of await things.find({ name: /^bulk/ })) await reference.insertAsync({ ...t });
    await check();
    await things.updateById(ids[3]!, { score: 100 });
    await reference.updateAsync({ _id: ids[3] }, { $set: { score: 100 } });
    await check();
    await things.updateById(ids[10]!, { name: 'Renamed ten' });
    await reference.updateAsync({ _id: ids[10] }, { $set: { name: 'Renamed ten' } });
    await check();
    // A value of another kind turns the sort column off; the general comparison must agree.
    const odd = await things.insertOne({ name: 'odd one', score: 'seven' as unknown as number });
    await reference.insertAsync({ ...odd });
    await check();
    await expect(things.updateById(ids[4]!, { name: 'f-thing 5' })).rejects.toThrow();
    await check();
    for (const id of [ids[0]!, ids[11]!, ids[6]!]) {
      await things.deleteById(id);
      await reference.removeAsync({ _id: id }, {});
      await check();
    }

    // What a caller does to a returned document never reaches the store.
    const [first] = await things.find({}, { sort: { score: -1 }, limit: 1 });
    const original = first!.score;
    first!.score = -1;
    expect((await things.find({}, { sort: { score: -1 }, limit: 1 }))[0]!.score).toBe(original);

    // And a restart reads the same from the file.
    await store.close();
    store = await openEmbeddedStore(dir);
    const reopened = store.collection<Thing>('things');
    expect((await reopened.find({}, { sort: { score: -1, _id: 1 } })).map((t) => t.name)).toEqual(
      (await reference.findAsync({}).sort({ score: -1, _id: 1 })).map((t) => t.name),
    );
  });
});
