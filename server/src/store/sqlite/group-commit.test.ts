import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { DuplicateKeyError, type Store, type StoredDoc } from '../store';
import { connect } from './engine';
import { storeFault } from './faults';
import { GroupCommit } from './group-commit';
import { openEmbeddedStore, SQLITE_FILE } from './store';

interface Save extends StoredDoc {
  member: string;
  seconds: number;
}

let dataDir = '';
let store: Store | null = null;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'group-commit-'));
});
afterEach(async () => {
  await store?.close();
  store = null;
  await rm(dataDir, { recursive: true, force: true });
});

const file = () => path.join(dataDir, 'db', SQLITE_FILE);
/** Frames in the write-ahead log: each commit appends every page it changed, and a commit mark. */
const logFrames = () => Math.max(0, (statSync(`${file()}-wal`).size - 32) / (4096 + 24));
/** Whether the returned promise has settled within a few turns of the event loop. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('group commit on the embedded store', () => {
  it('commits writes asked for at once together: the log grows by one commit, not one per write', async () => {
    store = await openEmbeddedStore(dataDir);
    const saves = store.collection<Save>('saves');
    const docs = await saves.insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: `m${String(i).padStart(23, '0')}`,
        member: `m${i}`,
        seconds: 0,
      })),
    );
    expect(docs).toBe(50);
    const before = logFrames();
    const written = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        saves.updateById(`m${String(i).padStart(23, '0')}`, { seconds: i + 1 }),
      ),
    );
    expect(written.map((doc) => doc?.seconds)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // One at a time, each of the 50 commits appended the changed pages again (100 frames and more).
    expect(logFrames() - before).toBeLessThan(10);
    // Another connection (another worker) reads them all.
    const other = connect(file(), { readonly: true });
    try {
      const sum = other.prepare("SELECT sum(json_extract(doc, '$.seconds')) AS s FROM saves").get() as {
        s: number;
      };
      expect(sum.s).toBe((50 * 51) / 2);
    } finally {
      other.close();
    }
  });

  it('refuses a write that fails alone, keeping the others committed with it', async () => {
    store = await openEmbeddedStore(dataDir);
    const saves = store.collection<Save>('saves');
    await saves.ensureIndex({ field: 'member', unique: true });
    const results = await Promise.allSettled([
      saves.insertOne({ member: 'ada', seconds: 1 }),
      saves.insertOne({ member: 'ada', seconds: 2 }),
      saves.insertOne({ member: 'grace', seconds: 3 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
    expect((await saves.find({}, { sort: { seconds: 1 } })).map((s) => [s.member, s.seconds])).toEqual([
      ['ada', 1],
      ['grace', 3],
    ]);
  });

  it('waits for another connection’s write lock without holding up the event loop, then writes', async () => {
    store = await openEmbeddedStore(dataDir);
    const saves = store.collection<Save>('saves');
    const first = await saves.insertOne({ member: 'ada', seconds: 1 });
    // Another worker in the middle of a commit.
    const other = new Database(file());
    other.prepare('BEGIN IMMEDIATE').run();
    const waiting = saves.updateById(first._id, { seconds: 2 });
    const started = performance.now();
    await sleep(50);
    // The timer fired on time: nothing slept on the event loop meanwhile.
    expect(performance.now() - started).toBeLessThan(500);
    expect(await settled(waiting)).toBe(false);
    other.prepare('COMMIT').run();
    other.close();
    expect((await waiting)?.seconds).toBe(2);
    expect((await saves.findById(first._id))?.seconds).toBe(2);
  });
});

describe('group commit answers a write only once the log is on stable storage', () => {
  let db: Database.Database;
  let syncs: Array<(error: Error | null) => void>;
  let group: GroupCommit;
  beforeEach(() => {
    db = new Database(path.join(dataDir, 'log.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v INTEGER)');
    syncs = [];
    group = new GroupCommit(db, {
      lockWaitMs: 5000,
      fault: (error) => storeFault(error, dataDir),
      syncAfterCommit: true,
      syncLog: (done) => syncs.push(done),
      syncLogNow: () => {},
    });
  });
  afterEach(() => db.close());
  const insert = (v: number) => group.run(() => db.prepare('INSERT INTO t VALUES (?)').run(v).changes);

  it('resolves after the fsync returns, not at COMMIT, and a write committed meanwhile waits for the next', async () => {
    const first = insert(1);
    expect(await settled(first)).toBe(false);
    // Committed (another connection could read it), but not yet answered.
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    expect(syncs).toHaveLength(1);
    const second = insert(2);
    expect(await settled(second)).toBe(false);
    // One fsync at a time: the second write's waits for the first to return.
    expect(syncs).toHaveLength(1);
    syncs[0]!(null);
    expect(await first).toBe(1);
    expect(await settled(second)).toBe(false);
    expect(syncs).toHaveLength(2);
    syncs[1]!(null);
    expect(await second).toBe(1);
  });

  it('refuses the writes of a failed fsync as not saved', async () => {
    const write = insert(1);
    await settled(write);
    syncs[0]!(new Database.SqliteError('fsync failed', 'SQLITE_IOERR_FSYNC'));
    await expect(write).rejects.toBeInstanceOf(AppError);
    await expect(write).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('commits at synchronous=FULL outside its own commits', async () => {
    const write = insert(1);
    await settled(write);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    syncs[0]!(null);
    await write;
  });
});
