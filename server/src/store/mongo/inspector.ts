import type { CollectionInfo, DatabaseStats, IndexInfo } from '@common/schemas/database';
import type { Document, MongoClient } from 'mongodb';
import type { ServerInfo, StoreInspector } from '../store-inspector';
import { loadMongoDriver } from './driver';

/** Every call the console makes to MongoDB gives up after this long (maxTimeMS, and on the socket). */
export const MONGO_TIME_LIMIT_MS = 5000;
/** How many collections are described at once: each takes two commands. */
const PARALLEL_COLLECTIONS = 4;
const UNAUTHORIZED = 13;

export interface MongoInspector extends StoreInspector {
  close(): Promise<void>;
}

/**
 * MongoDB describing itself through documented, read-only commands: buildInfo, serverStatus,
 * listDatabases, dbStats, listCollections, $collStats, listIndexes, find and count. It uses its
 * own small client, made on first use, whose every call is limited in time (the driver's
 * `timeoutMS` has no effect in driver 7, hence maxTimeMS on the server and a socket timeout).
 */
export function mongoInspector(uri: string, timeLimitMs = MONGO_TIME_LIMIT_MS): MongoInspector {
  let client: MongoClient | null = null;
  const connect = async () => {
    const { MongoClient } = await loadMongoDriver();
    client ??= new MongoClient(uri, {
      serverSelectionTimeoutMS: timeLimitMs,
      connectTimeoutMS: timeLimitMs,
      // Past maxTimeMS the server has answered with an error; silence beyond it is a dead link.
      socketTimeoutMS: timeLimitMs + 1000,
      maxPoolSize: 2,
      appName: 'members-console',
    });
    return client;
  };
  const maxTimeMS = timeLimitMs;
  const command = async (database: string, body: Document) =>
    (await connect()).db(database).command({ ...body, maxTimeMS });
  /** Only a driver error can reach this: the driver is loaded by then. */
  const isUnauthorized = async (error: unknown) =>
    error instanceof (await loadMongoDriver()).MongoServerError && error.code === UNAUTHORIZED;

  async function databaseNames(): Promise<string[]> {
    try {
      const answer = await command('admin', { listDatabases: 1, nameOnly: true, authorizedDatabases: true });
      return (answer.databases as Array<{ name: string }>).map((d) => d.name).sort();
    } catch (error) {
      // A user without the listDatabases privilege still sees the database it was given.
      if (await isUnauthorized(error)) return [(await connect()).db().databaseName];
      throw error;
    }
  }

  const known = async (database: string) => (await databaseNames()).includes(database);

  async function collectionNames(database: string): Promise<string[]> {
    const list = await (await connect())
      .db(database)
      .listCollections({ type: 'collection' }, { nameOnly: true, authorizedCollections: true, maxTimeMS })
      .toArray();
    return list.map((c) => c.name).sort();
  }

  async function describe(database: string, name: string): Promise<CollectionInfo> {
    const collection = (await connect()).db(database).collection(name);
    const [stats, indexes] = await Promise.all([
      collection.aggregate([{ $collStats: { storageStats: {} } }], { maxTimeMS }).toArray(),
      collection.listIndexes({ maxTimeMS }).toArray(),
    ]);
    const storage = (stats[0]?.storageStats ?? {}) as Document;
    return {
      name,
      count: Number(storage.count ?? 0),
      size: Number(storage.size ?? 0),
      avgObjSize: Math.round(Number(storage.avgObjSize ?? 0)),
      storageSize: Number(storage.storageSize ?? 0),
      indexes: indexes.map(
        (index): IndexInfo => ({
          name: String(index.name),
          keys: index.key as IndexInfo['keys'],
          unique: index.unique === true,
          sparse: index.sparse === true,
        }),
      ),
    };
  }

  return {
    async server(): Promise<ServerInfo> {
      const mongo = await connect();
      const [build, status] = await Promise.all([
        command('admin', { buildInfo: 1 }),
        // Uptime needs the clusterMonitor role; without it the status line simply leaves it out.
        command('admin', { serverStatus: 1, repl: 0, metrics: 0, locks: 0, wiredTiger: 0 }).catch(
          async (error: unknown) => {
            if (await isUnauthorized(error)) return null;
            throw error;
          },
        ),
      ]);
      const address = mongo.options.hosts[0];
      const host = address?.host ?? address?.socketPath ?? mongo.options.srvHost ?? 'unknown';
      const port = address?.port ?? null;
      const database = mongo.db().databaseName;
      return {
        kind: 'mongodb',
        version: String(build.version),
        uptimeSeconds: status ? Math.round(Number(status.uptime)) : null,
        host,
        port,
        database,
        location: `${host}${port ? `:${port}` : ''}/${database}`,
      };
    },
    databaseNames,
    async databaseStats(database): Promise<DatabaseStats | null> {
      if (!(await known(database))) return null;
      const stats = await command(database, { dbStats: 1, scale: 1 });
      return {
        database,
        collections: Number(stats.collections ?? 0),
        objects: Number(stats.objects ?? 0),
        dataSize: Number(stats.dataSize ?? 0),
        storageSize: Number(stats.storageSize ?? 0),
        indexes: Number(stats.indexes ?? 0),
        avgObjSize: Math.round(Number(stats.avgObjSize ?? 0)),
      };
    },
    async collections(database) {
      if (!(await known(database))) return null;
      const names = await collectionNames(database);
      const described: CollectionInfo[] = [];
      for (let i = 0; i < names.length; i += PARALLEL_COLLECTIONS) {
        const batch = names.slice(i, i + PARALLEL_COLLECTIONS);
        described.push(...(await Promise.all(batch.map((name) => describe(database, name)))));
      }
      return described;
    },
    async documents(database, name, limit) {
      if (!(await known(database)) || !(await collectionNames(database)).includes(name)) return null;
      const collection = (await connect()).db(database).collection(name);
      const [total, documents] = await Promise.all([
        collection.estimatedDocumentCount({ maxTimeMS }),
        collection.find({}, { limit, maxTimeMS }).toArray(),
      ]);
      return { total, documents };
    },
    async close() {
      await client?.close();
      client = null;
    },
  };
}
