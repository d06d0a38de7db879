import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CollectionInfo, DatabaseStats, IndexInfo } from '@common/schemas/database';
import type { StoredDoc } from './store';
import type { StoreInspector } from './store-inspector';
import { storedJsonSize } from './stored-json-size';

/** The embedded store holds one database; the console and the explorer know it by this name. */
export const EMBEDDED_DATABASE = 'members';

const NEDB_VERSION = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@seald-io/nedb/package.json'), 'utf8')) as {
    version: string;
  }
).version;

export interface EmbeddedCollectionStats {
  count: number;
  /** Bytes of the documents' stored JSON. */
  dataSize: number;
  indexes: IndexInfo[];
}

/** nedb's index objects, keyed by field name ('_id' always among them). */
export type NedbIndexes = Record<string, { fieldName: string; unique: boolean; sparse: boolean }>;

/** nedb's indexes, named as MongoDB names them, so the explorer reads the same on both stores. */
export function describeIndexes(indexes: NedbIndexes): IndexInfo[] {
  return Object.values(indexes).map((index) => ({
    name: index.fieldName === '_id' ? '_id_' : `${index.fieldName.replaceAll(',', '_1_')}_1`,
    keys: Object.fromEntries(index.fieldName.split(',').map((field) => [field, 1])),
    unique: index.unique,
    sparse: index.sparse,
  }));
}

/**
 * The stored size of each document of a collection and their total, measured once (~0.1 s for
 * 100,000 users) and then kept up to date write by write, so that the explorer's figures stay
 * exact without measuring everything again after each change.
 */
export class StoredSizes {
  private readonly byId = new Map<string, number>();
  total = 0;

  constructor(docs: readonly StoredDoc[]) {
    for (const doc of docs) this.put(doc);
  }

  put(doc: StoredDoc): void {
    const size = storedJsonSize(doc);
    this.total += size - (this.byId.get(doc._id) ?? 0);
    this.byId.set(doc._id, size);
  }

  remove(id: string): void {
    this.total -= this.byId.get(id) ?? 0;
    this.byId.delete(id);
  }
}

interface Describable {
  describe(): Promise<EmbeddedCollectionStats>;
  first(limit: number): Promise<StoredDoc[]>;
}

/** The embedded store described in MongoDB's terms: one database, its collection files, their indexes. */
export function embeddedInspector(
  dir: string,
  open: (name: string) => Describable,
  collectionNames: () => Promise<string[]>,
): StoreInspector {
  const openedAt = Date.now();
  const known = (database: string) => database === EMBEDDED_DATABASE;

  async function collections(database: string): Promise<CollectionInfo[] | null> {
    if (!known(database)) return null;
    const names = await collectionNames();
    return Promise.all(
      names.map(async (name) => {
        const [stats, storageSize] = await Promise.all([open(name).describe(), fileSize(dir, name)]);
        return {
          name,
          count: stats.count,
          size: stats.dataSize,
          avgObjSize: stats.count ? Math.round(stats.dataSize / stats.count) : 0,
          storageSize,
          indexes: stats.indexes,
        };
      }),
    );
  }

  return {
    async server() {
      return {
        kind: 'embedded',
        version: `nedb ${NEDB_VERSION}`,
        uptimeSeconds: Math.round((Date.now() - openedAt) / 1000),
        host: 'localhost',
        port: null,
        database: EMBEDDED_DATABASE,
        location: dir,
      };
    },
    async databaseNames() {
      return [EMBEDDED_DATABASE];
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
      if (!known(database) || !(await collectionNames()).includes(collection)) return null;
      const opened = open(collection);
      const [{ count }, documents] = await Promise.all([opened.describe(), opened.first(limit)]);
      return { total: count, documents: documents as unknown as Array<Record<string, unknown>> };
    },
  };
}

async function fileSize(dir: string, name: string): Promise<number> {
  try {
    return (await stat(path.join(dir, `${name}.db`))).size;
  } catch {
    return 0; // opened in this process but not written to disk yet
  }
}

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);
