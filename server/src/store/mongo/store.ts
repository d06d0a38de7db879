import type { Db, Document } from 'mongodb';
import { newId } from '../new-id';
import {
  type BatchOptions,
  type Collection,
  type CountOptions,
  type DocChanges,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDoc,
  type Store,
  type StoredDoc,
  splitChanges,
} from '../store';
import { WriteGate } from '../write-gate';
import { COUNTERS_COLLECTION, mongoCounters } from './counters';
import { loadMongoDriver } from './driver';
import { mongoInspector } from './inspector';
import { type DocumentLocks, documentLocks, LOCKS_COLLECTION } from './locks';

/** The adapter's own collections (see counters.ts, locks.ts): not the site's data to copy. */
const OWN_COLLECTIONS = new Set([COUNTERS_COLLECTION, LOCKS_COLLECTION]);
/** Times an update on FerretDB looks for its document again when it changed before it was locked. */
const UPDATE_ATTEMPTS = 10;

/**
 * Whether the server updates a document atomically. MongoDB does. FerretDB (its `buildInfo` names
 * its version; v1.24.2 checked) reads the document, applies the update and writes the whole
 * document back by `_id`, with nothing to stop another write in between: two compare-and-sets
 * on one document both win, and one of two increments is lost. There the adapter holds the
 * document's lock (locks.ts) for each update and delete.
 */
async function updatesAreAtomic(db: Db): Promise<boolean> {
  const build = await db.admin().command({ buildInfo: 1 });
  return build.ferretdbVersion === undefined;
}

/** MongoDB through the official driver. The database is the one named in the URI. */
export async function openMongoStore(uri: string): Promise<Store> {
  const { MongoClient } = await loadMongoDriver();
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const db = client.db();
  const atomic = await updatesAreAtomic(db).catch(async (error: unknown) => {
    await client.close();
    throw error;
  });
  const gate = new WriteGate();
  const inspector = mongoInspector(uri);
  const locks = documentLocks(db);
  const counters = mongoCounters(db, locks, { atomicDeletes: atomic });
  return {
    kind: 'mongodb',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      return new MongoCollection<T>(db, name, gate, atomic ? null : locks);
    },
    async collectionNames() {
      const list = await db.listCollections({ type: 'collection' }, { nameOnly: true }).toArray();
      return list
        .map((c) => c.name)
        .filter((name) => !OWN_COLLECTIONS.has(name))
        .sort();
    },
    inspector,
    counters,
    pauseWrites: (reason) => gate.pause(reason),
    async close() {
      counters.close();
      await inspector.close();
      await client.close();
    },
  };
}

class MongoCollection<T extends StoredDoc> implements Collection<T> {
  private readonly c;

  constructor(
    db: Db,
    private readonly name: string,
    private readonly gate: WriteGate,
    /** Set where the server's own updates are not atomic (FerretDB): each update and delete holds the document's lock. */
    private readonly locks: DocumentLocks | null,
  ) {
    // Ids are strings made by newId(), so the driver's ObjectId typing does not apply here.
    this.c = db.collection<Document & { _id: string }>(name);
  }

  async insertOne(doc: NewDoc<T>): Promise<T> {
    const now = new Date();
    const full = { ...doc, _id: newId(), createdAt: now, updatedAt: now };
    await this.write(() => this.c.insertOne(full));
    return full as unknown as T;
  }

  async insertMany(docs: Array<NewDoc<T> & Partial<StoredDoc>>): Promise<number> {
    if (docs.length === 0) return 0;
    const now = new Date();
    const full = docs.map((doc) => ({ _id: doc._id ?? newId(), createdAt: now, updatedAt: now, ...doc }));
    const result = await this.write(() => this.c.insertMany(full, { ordered: true }));
    return result.insertedCount;
  }

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.c.findOne(mongoFilter(filter))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.c.find(mongoFilter(filter));
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async *findInBatches(filter: Filter, options: BatchOptions = {}): AsyncGenerator<T[]> {
    const size = options.batchSize ?? 250;
    let cursor = this.c.find(mongoFilter(filter), { batchSize: size });
    if (options.sort) cursor = cursor.sort(options.sort);
    let batch: T[] = [];
    for await (const doc of cursor) {
      batch.push(doc as unknown as T);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    return this.c.countDocuments(mongoFilter(filter), options.limit ? { limit: options.limit } : {});
  }

  updateById(id: string, changes: DocChanges<T>): Promise<T | null> {
    return this.updateOne({ _id: id }, changes);
  }

  async updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null> {
    const { set, unset } = splitChanges(changes as Record<string, unknown>);
    const update: Document = { $set: { ...set, updatedAt: new Date() } };
    if (Object.keys(unset).length) update.$unset = unset;
    const query = mongoFilter(filter);
    const apply = async (matching: Filter) =>
      ((await this.write(() =>
        this.c.findOneAndUpdate(matching, update, { returnDocument: 'after' }),
      )) as T | null) ?? null;
    const locks = this.locks;
    if (!locks) return apply(query);
    // The document the filter finds, updated under its lock if it still matches; else found again.
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const found = await this.c.findOne(query, { projection: { _id: 1 } });
      if (!found) return null;
      const updated = await locks.holding([this.lockName(found._id)], () =>
        apply({ $and: [query, { _id: found._id }] }),
      );
      if (updated) return updated;
    }
    return null;
  }

  async deleteById(id: string): Promise<boolean> {
    const remove = async () => (await this.write(() => this.c.deleteOne({ _id: id }))).deletedCount === 1;
    return this.locks ? this.locks.holding([this.lockName(id)], remove) : remove();
  }

  private lockName(id: string): string {
    return `doc:${this.name}:${id}`;
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    await this.c.createIndex({ [index.field]: 1 }, { unique: index.unique ?? false });
  }

  private write<R>(run: () => Promise<R>): Promise<R> {
    return this.gate.run(() => translate(run));
  }
}

async function translate<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    // The driver is loaded by now: this store was opened with it.
    const { MongoServerError } = await loadMongoDriver();
    // FerretDB answers a unique index's refusal of an update with its SQLite error (code 1).
    if (
      error instanceof MongoServerError &&
      (error.code === 11000 || (error.code === 1 && /UNIQUE constraint failed/.test(error.message)))
    ) {
      throw new DuplicateKeyError(Object.keys(error.keyPattern ?? {})[0]);
    }
    throw error;
  }
}

/** Our `$contains` (literal text, any letter case) in MongoDB's words: an escaped, case-insensitive $regex. */
export function mongoFilter(filter: Filter): Filter {
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$or' || key === '$and') && Array.isArray(value))
      out[key] = value.map((branch) => mongoFilter(branch));
    else if (value !== null && typeof value === 'object' && '$contains' in value) {
      const { $contains, ...rest } = value as Record<string, unknown>;
      out[key] = {
        ...rest,
        $regex: String($contains).replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
        $options: 'i',
      };
    } else out[key] = value;
  }
  return out;
}
