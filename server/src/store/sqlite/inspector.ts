import type { CollectionInfo, DatabaseStats, IndexInfo } from '@common/schemas/database';
import type { StoredDoc } from '../store';
import type { StoreInspector } from '../store-inspector';
import { decodeDoc } from './documents';
import type { SqliteEngine } from './engine';
import { ident } from './query';

/** The embedded store holds one database; the console and the explorer know it by this name. */
export const SQLITE_DATABASE = 'members';
/** Measuring pages walks every page of the file (dbstat), so the figure is reused this long. */
const STORAGE_MEASURE_MS = 300_000;

/**
 * The SQLite store described in MongoDB's terms: one database, its collections with the counts
 * and JSON sizes the triggers keep, storage on disk from SQLite's own page counts (dbstat: the
 * table, its indexes and its search index), and the indexes it keeps, named as MongoDB names them.
 */
export function sqliteInspector(engine: SqliteEngine): StoreInspector {
  const openedAt = Date.now();
  const version = (engine.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const known = (database: string) => database === SQLITE_DATABASE;
  let storage: { at: number; bytes: Map<string, number> } | null = null;

  /** Bytes of the pages each collection uses, by collection name. */
  function storageByCollection(): Map<string, number> {
    if (storage && Date.now() - storage.at < STORAGE_MEASURE_MS) return storage.bytes;
    const rows = engine.db
      .prepare(`SELECT name, tbl_name AS owner, pgsize FROM (
          SELECT name, sum(pgsize) AS pgsize FROM dbstat WHERE aggregate = TRUE GROUP BY name
        ) JOIN sqlite_schema USING (name)`)
      .all() as Array<{ name: string; owner: string; pgsize: number }>;
    const bytes = new Map<string, number>();
    for (const row of rows) {
      // A search index's shadow tables are named after it: "<collection>$search$<field>_data".
      const collection = row.owner.split('$')[0]!;
      bytes.set(collection, (bytes.get(collection) ?? 0) + row.pgsize);
    }
    storage = { at: Date.now(), bytes };
    return bytes;
  }

  function describe(
    name: string,
    counts: { count: number; size: number },
    pages: Map<string, number>,
  ): CollectionInfo {
    const indexes: IndexInfo[] = [
      { name: '_id_', keys: { _id: 1 }, unique: true, sparse: false },
      ...engine.indexesOf(name).flatMap((index): IndexInfo[] => [
        { name: `${index.field}_1`, keys: { [index.field]: 1 }, unique: index.unique, sparse: false },
        ...(index.search
          ? [
              {
                name: `${index.field}_trigram`,
                keys: { [index.field]: 'trigram' },
                unique: false,
                sparse: true,
              },
            ]
          : []),
      ]),
    ];
    return {
      name,
      count: counts.count,
      size: counts.size,
      avgObjSize: counts.count ? Math.round(counts.size / counts.count) : 0,
      storageSize: pages.get(name) ?? 0,
      indexes,
    };
  }

  async function collections(database: string): Promise<CollectionInfo[] | null> {
    if (!known(database)) return null;
    return engine.run(() => {
      const rows = engine.db
        .prepare('SELECT name, count, size FROM "$collections" ORDER BY name')
        .all() as Array<{
        name: string;
        count: number;
        size: number;
      }>;
      const pages = storageByCollection();
      return rows.map((row) => describe(row.name, row, pages));
    });
  }

  return {
    async server() {
      return {
        kind: 'embedded',
        version: `SQLite ${version}`,
        uptimeSeconds: Math.round((Date.now() - openedAt) / 1000),
        host: 'localhost',
        port: null,
        database: SQLITE_DATABASE,
        location: engine.file,
      };
    },
    async databaseNames() {
      return [SQLITE_DATABASE];
    },
    async databaseStats(database): Promise<DatabaseStats | null> {
      const list = await collections(database);
      if (!list) return null;
      const objects = sum(list, (c) => c.count);
      const dataSize = sum(list, (c) => c.size);
      return {
        database,
        collections: list.length,
        objects,
        dataSize,
        storageSize: sum(list, (c) => c.storageSize),
        indexes: sum(list, (c) => c.indexes.length),
        avgObjSize: objects ? Math.round(dataSize / objects) : 0,
      };
    },
    collections,
    async documents(database, collection, limit) {
      if (!known(database) || !engine.has(collection)) return null;
      return engine.run(() => {
        const total = (
          engine.db.prepare('SELECT count FROM "$collections" WHERE name = ?').get(collection) as {
            count: number;
          }
        ).count;
        const rows = engine.db
          .prepare(`SELECT id, json(doc) AS doc, dates FROM ${ident(collection)} ORDER BY seq LIMIT ?`)
          .all(limit) as Array<{ id: string; doc: string; dates: string | null }>;
        const documents = rows.map(
          (row) => decodeDoc<StoredDoc>(row.id, row.doc, row.dates) as unknown as Record<string, unknown>,
        );
        return { total, documents };
      });
    },
  };
}

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);
