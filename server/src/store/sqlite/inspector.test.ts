import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, StoredDoc } from '../store';
import { openEmbeddedStore } from './store';

let dir = '';
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'inspector-'));
  store = await openEmbeddedStore(dir);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the collection holds, measured the slow way: every row of its table, through a connection of its own. */
async function measured(name: string) {
  const db = new Database(path.join(dir, 'db', 'site.sqlite'), { readonly: true });
  try {
    return db
      .prepare(`SELECT count(*) AS count, coalesce(sum(octet_length(doc)), 0) AS size FROM "${name}"`)
      .get();
  } finally {
    db.close();
  }
}

const described = async (name: string) =>
  (await store.inspector.collections('members'))!.find((c) => c.name === name)!;

describe('the SQLite store describing itself', () => {
  it('keeps exact counts and JSON sizes through inserts, updates and deletes', async () => {
    const notes = store.collection<StoredDoc & { text: string; n?: number }>('notes');
    await notes.ensureIndex({ field: 'text', unique: true });
    const made = [];
    for (let i = 0; i < 50; i++) made.push(await notes.insertOne({ text: `note ${i} ${'é'.repeat(i % 7)}` }));
    let info = await described('notes');
    expect({ count: info.count, size: info.size }).toEqual(await measured('notes'));

    await notes.updateById(made[3]!._id, { text: 'a much longer text than before, with “quotes”', n: 12 });
    await notes.deleteById(made[7]!._id);
    await notes.insertMany([{ text: 'bulk one' }, { text: 'bulk two' }]);
    await expect(notes.insertOne({ text: 'bulk one' })).rejects.toThrow();
    info = await described('notes');
    expect({ count: info.count, size: info.size }).toEqual(await measured('notes'));
    expect(info.count).toBe(51);
    expect(info.avgObjSize).toBe(Math.round(info.size / 51));
    // SQLite's own page counts: the table, its id index and its text index, 4 KiB pages.
    expect(info.storageSize % 4096).toBe(0);
    expect(info.storageSize).toBeGreaterThanOrEqual(3 * 4096);
    expect(info.indexes.map((i) => i.name)).toEqual(['_id_', 'text_1']);
    const server = await store.inspector.server();
    expect(server.version).toMatch(/^SQLite 3\.\d+\.\d+$/);
    expect(server.location).toBe(path.join(dir, 'db', 'site.sqlite'));
  });

  it('answers null for a database or collection it does not have, and creates nothing', async () => {
    expect(await store.inspector.databaseStats('other')).toBeNull();
    expect(await store.inspector.collections('other')).toBeNull();
    expect(await store.inspector.documents('members', 'ghost', 5)).toBeNull();
    expect(await store.collectionNames()).not.toContain('ghost');
  });
});
