import { update } from 'mingo';
import type { Document } from 'mongodb';
import {
  countDocuments,
  cursor,
  duplicateOf,
  indexesOf,
  matching,
  noSuchCommand,
  ordering,
  type StandInCollection,
  type StandInData,
  type StandInIndex,
  sizeOf,
  sizeOfDb,
} from './mongo-stand-in-data';
import { listenWire, type WireAnswer, type WireCommand } from './mongo-wire';

/**
 * A MongoDB server stand-in for tests, on the real wire protocol, so that the official driver
 * runs its real code paths against it. No MongoDB server can be installed on the project's
 * machines. It keeps databases in memory and answers the commands the product sends with the
 * reply shapes MongoDB documents for them (hello, buildInfo, serverStatus, listDatabases, dbStats,
 * listCollections, $collStats, listIndexes, find, count, countDocuments' aggregate, createIndexes,
 * insert, findAndModify, update by `_id` with upsert, delete); anything else gets MongoDB's "no such command" error. Filters,
 * sorts and updates follow mingo's implementation of MongoDB's query language: close enough to
 * exercise the driver and the adapter, but it is no proof of MongoDB's own semantics. Unique
 * indexes are enforced on insert and update, with MongoDB's E11000 error; a sparse one skips
 * documents without its fields. Every command received is recorded for assertions.
 */
export interface StandInOptions {
  data?: StandInData;
  version?: string;
  uptimeSeconds?: number;
  /** Commands (by name) that the stand-in receives but never answers: a server that hangs. */
  hang?: string[];
  /** Commands answered with MongoDB's Unauthorized error, as for a user without the role. */
  unauthorized?: string[];
}

export interface MongoStandIn {
  port: number;
  uri(database: string): string;
  commands: WireCommand[];
  /** The commands received, without the driver's own handshakes and session bookkeeping. */
  sent(): WireCommand[];
  data: StandInData;
  close(): Promise<void>;
}

const HANDSHAKES = new Set(['hello', 'ismaster', 'isMaster', 'endSessions']);

export async function startMongoStandIn(options: StandInOptions = {}): Promise<MongoStandIn> {
  const data: StandInData = structuredClone(options.data ?? {});
  const commands: WireCommand[] = [];
  let connectionId = 0;

  const reply = (command: WireCommand): WireAnswer => {
    commands.push(command);
    const { name, db, document } = command;
    if (options.hang?.includes(name)) return 'hang';
    if (options.unauthorized?.includes(name)) {
      return {
        ok: 0,
        code: 13,
        codeName: 'Unauthorized',
        errmsg: `not authorized on ${db} to execute ${name}`,
      };
    }
    const collection = (coll: string) => data[db]?.[coll];
    const created = (coll: string): StandInCollection => {
      const database = data[db] ?? {};
      data[db] = database;
      database[coll] ??= { docs: [] };
      return database[coll];
    };
    const ns = (coll: string) => `${db}.${coll}`;
    switch (name) {
      case 'hello':
      case 'ismaster':
      case 'isMaster':
        connectionId += 1;
        // What a standalone server of wire version 21 (MongoDB 7.0) says; the driver needs these.
        return {
          helloOk: true,
          isWritablePrimary: true,
          ismaster: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId,
          minWireVersion: 0,
          maxWireVersion: 21,
          readOnly: false,
          ok: 1,
        };
      case 'ping':
      case 'endSessions':
        return { ok: 1 };
      case 'buildInfo':
        return { version: options.version ?? '7.0.14', versionArray: [7, 0, 14, 0], ok: 1 };
      case 'serverStatus':
        return {
          host: 'stand-in:27017',
          version: options.version ?? '7.0.14',
          uptime: options.uptimeSeconds ?? 3600,
          ok: 1,
        };
      case 'listDatabases': {
        const names = Object.keys(data);
        if (document.nameOnly) return { databases: names.map((n) => ({ name: n })), ok: 1 };
        return {
          databases: names.map((n) => ({ name: n, sizeOnDisk: sizeOfDb(data[n]!), empty: false })),
          totalSize: names.reduce((sum, n) => sum + sizeOfDb(data[n]!), 0),
          ok: 1,
        };
      }
      case 'dbStats': {
        const colls = Object.values(data[db] ?? {});
        const objects = colls.reduce((sum, c) => sum + c.docs.length, 0);
        const dataSize = colls.reduce((sum, c) => sum + sizeOf(c.docs), 0);
        return {
          db,
          collections: colls.length,
          views: 0,
          objects,
          avgObjSize: objects ? dataSize / objects : 0,
          dataSize,
          storageSize: dataSize * 2,
          indexes: colls.reduce((sum, c) => sum + indexesOf(c).length, 0),
          indexSize: colls.length * 4096,
          ok: 1,
        };
      }
      case 'listCollections': {
        const names = Object.keys(data[db] ?? {});
        return cursor(
          ns('$cmd.listCollections'),
          names.map((n) => ({ name: n, type: 'collection', options: {}, info: { readOnly: false } })),
        );
      }
      case 'listIndexes': {
        const coll = collection(String(document.listIndexes));
        if (!coll)
          return {
            ok: 0,
            code: 26,
            codeName: 'NamespaceNotFound',
            errmsg: `ns does not exist: ${ns(String(document.listIndexes))}`,
          };
        return cursor(
          ns(String(document.listIndexes)),
          indexesOf(coll).map((i) => ({ v: 2, ...i })),
        );
      }
      case 'aggregate': {
        const coll = collection(String(document.aggregate));
        const stage = (document.pipeline as Document[])[0] ?? {};
        if (stage.$match)
          return countDocuments(ns(String(document.aggregate)), coll?.docs ?? [], document.pipeline);
        if (!stage.$collStats) return noSuchCommand(`aggregate ${Object.keys(stage)[0]}`);
        const docs = coll?.docs ?? [];
        const size = sizeOf(docs);
        return cursor(ns(String(document.aggregate)), [
          {
            ns: ns(String(document.aggregate)),
            host: 'stand-in:27017',
            localTime: new Date(),
            storageStats: {
              size,
              count: docs.length,
              avgObjSize: docs.length ? Math.round(size / docs.length) : 0,
              storageSize: size * 2,
              nindexes: coll ? indexesOf(coll).length : 0,
              totalIndexSize: 4096,
            },
          },
        ]);
      }
      case 'find': {
        const docs = matching(collection(String(document.find))?.docs ?? [], document.filter);
        if (document.sort) docs.sort(ordering(document.sort));
        const skip = Number(document.skip ?? 0);
        const limit = Number(document.limit ?? 0) || docs.length;
        return cursor(ns(String(document.find)), docs.slice(skip, skip + limit));
      }
      case 'findAndModify': {
        const coll = collection(String(document.findAndModify));
        const found = matching(coll?.docs ?? [], document.query)[0];
        if (!coll || !found) return { value: null, lastErrorObject: { n: 0, updatedExisting: false }, ok: 1 };
        const updated = structuredClone(found);
        update(updated, document.update);
        const clash = duplicateOf(coll, updated, found);
        if (clash) return { ok: 0, ...clash };
        coll.docs[coll.docs.indexOf(found)] = updated;
        return {
          value: document.new ? updated : found,
          lastErrorObject: { n: 1, updatedExisting: true },
          ok: 1,
        };
      }
      case 'update': {
        // One update per entry, without `multi` (the adapter's upserts of counters by `_id`).
        const coll = created(String(document.update));
        let n = 0;
        let nModified = 0;
        const upserted: Document[] = [];
        for (const [index, { q, u, upsert }] of (
          document.updates as Array<{ q: Document; u: Document; upsert?: boolean }>
        ).entries()) {
          const found = matching(coll.docs, q)[0];
          const updated = structuredClone(found ?? (typeof q._id === 'string' ? { _id: q._id } : null));
          if (!updated || (!found && !upsert)) continue;
          update(updated, u);
          const clash = duplicateOf(coll, updated, found);
          if (clash) return { n, nModified, writeErrors: [{ index, ...clash }], ok: 1 };
          if (found) {
            coll.docs[coll.docs.indexOf(found)] = updated;
            nModified += 1;
          } else {
            coll.docs.push(updated);
            upserted.push({ index, _id: updated._id });
          }
          n += 1;
        }
        return { n, nModified, ...(upserted.length ? { upserted } : {}), ok: 1 };
      }
      case 'delete': {
        const coll = collection(String(document.delete));
        let n = 0;
        for (const { q, limit } of document.deletes as Array<{ q: Document; limit: number }>) {
          const doomed = matching(coll?.docs ?? [], q).slice(0, limit === 1 ? 1 : undefined);
          if (coll) coll.docs = coll.docs.filter((doc) => !doomed.includes(doc));
          n += doomed.length;
        }
        return { n, ok: 1 };
      }
      case 'count':
        return { n: collection(String(document.count))?.docs.length ?? 0, ok: 1 };
      case 'createIndexes': {
        const coll = created(String(document.createIndexes));
        coll.indexes ??= [];
        for (const index of document.indexes as StandInIndex[]) {
          if (!coll.indexes.some((i) => i.name === index.name)) coll.indexes.push(index);
        }
        return { numIndexesBefore: 1, numIndexesAfter: coll.indexes.length + 1, ok: 1 };
      }
      case 'insert': {
        const coll = created(String(document.insert));
        const docs = document.documents as Document[];
        for (const [index, doc] of docs.entries()) {
          const clash = duplicateOf(coll, doc);
          if (clash) return { n: index, writeErrors: [{ index, ...clash }], ok: 1 };
          coll.docs.push(doc);
        }
        return { n: docs.length, ok: 1 };
      }
      default:
        return noSuchCommand(name);
    }
  };

  const wire = await listenWire(reply);
  return {
    port: wire.port,
    uri: (database) => `mongodb://127.0.0.1:${wire.port}/${database}?directConnection=true`,
    commands,
    sent: () => commands.filter((c) => !HANDSHAKES.has(c.name)),
    data,
    close: wire.close,
  };
}
