import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StartupError, unwritableFolder } from '../../lib/startup-error';
import { importNedbFiles } from '../nedb/import';
import type { Collection, Store, StoredDoc } from '../store';
import { WriteGate } from '../write-gate';
import { createCatalog } from './catalog';
import { SqliteCollection } from './collection';
import { openSqliteCounters } from './counters';
import { connect, SqliteEngine } from './engine';
import { sqliteInspector } from './inspector';
import { lockEmbeddedStore } from './lock';

/** The one database file of the embedded store, in DATA_DIR/db. */
export const SQLITE_FILE = 'site.sqlite';
/** Keys of a paged sort order between two anchors: a far page walks at most about twice this many index entries. */
const ANCHOR_SPACING = 1000;

export interface EmbeddedStoreOptions {
  /** Keys between two anchors of a paged sort order (tests lay them closer to split and fold often). */
  anchorSpacing?: number;
  /** The workers of one supervisor hold the lock under its pid (lock.ts). */
  lockHolder?: number;
}

/**
 * The default store: SQLite in one file, DATA_DIR/db/site.sqlite. WAL journal; a write resolves
 * only once its commit is on stable storage, the writes of one turn of the event loop sharing
 * one commit and one fsync (group-commit.ts). Each collection
 * is a table of JSON documents; its indexes are SQL indexes on the fields' json_extract
 * expressions; counts live in a table kept by triggers in the same transactions as the writes.
 */
export async function openEmbeddedStore(
  dataDir: string,
  notice: (message: string) => void = (message) => console.log(message),
  options: EmbeddedStoreOptions = {},
): Promise<Store> {
  const dir = path.join(dataDir, 'db');
  const unusable = async (error: unknown): Promise<never> => {
    throw (error as NodeJS.ErrnoException).code
      ? await unwritableFolder('the database folder', dir, error)
      : error;
  };
  await mkdir(dir, { recursive: true }).catch(unusable);
  const { release: unlock, joined } = await lockEmbeddedStore(dir, { holder: options.lockHolder }).catch(
    unusable,
  );
  const file = path.join(dir, SQLITE_FILE);
  let db: Database.Database;
  try {
    // Beside another worker the log is in use, not left over.
    const leftover = joined ? null : await stat(`${file}-wal`).catch(() => null);
    db = connect(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    createCatalog(db);
    if (leftover && leftover.size > 0) {
      notice(
        `The database ${file} was not closed cleanly last time; SQLite replayed the ${leftover.size} bytes of its write-ahead log (committed writes kept, any unfinished one discarded).`,
      );
    }
  } catch (error) {
    await unlock();
    if (!(error instanceof Database.SqliteError)) throw error;
    throw new StartupError(
      `Cannot start: the database ${file} cannot be opened (${error.code}: ${error.message}). Check that the disk has room and the folder is writable, then start again.`,
    );
  }
  const engine = new SqliteEngine(db, file, dir, options.anchorSpacing ?? ANCHOR_SPACING);
  try {
    await importNedbFiles(dir, engine, notice);
  } catch (error) {
    db.close();
    await unlock();
    throw error;
  }
  let counters: ReturnType<typeof openSqliteCounters>;
  try {
    counters = openSqliteCounters(dir);
  } catch (error) {
    db.close();
    await unlock();
    throw error;
  }
  const gate = new WriteGate();
  const collections = new Map<string, SqliteCollection<StoredDoc>>();
  let closed = false;
  const open = (name: string) => {
    if (closed) throw new Error('The store is closed');
    let collection = collections.get(name);
    if (!collection) {
      collection = new SqliteCollection(engine, name, gate);
      collections.set(name, collection);
    }
    return collection;
  };

  return {
    kind: 'embedded',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      return open(name) as unknown as Collection<T>;
    },
    collectionNames: async () => engine.collectionNames(),
    inspector: sqliteInspector(engine),
    counters,
    pauseWrites: (reason) => gate.pause(reason),
    async close() {
      if (closed) return;
      closed = true;
      counters.close();
      engine.close();
      await unlock();
    },
  };
}
