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

/** MongoDB through the official driver. The database is the one named in the URI. */
export async function openMongoStore(uri: string): Promise<Store> {
  const { MongoClient } = await loadMongoDriver();
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const db = client.db();
  const gate = new WriteGate();
  const inspector = mongoInspector(uri);
  const counters = mongoCounters(db);
  return {
    kind: 'mongodb',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      return new MongoCollection<T>(db, name, gate);
    },
    async collectionNames() {
      const list = await db.listCollections({ type: 'collection' }, { nameOnly: true }).toArray();
      // The counters are the adapter's own (see counters.ts): not the site's data to copy.
      return list
        .map((c) => c.name)
        .filter((name) => name !== COUNTERS_COLLECTION)
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
    name: string,
    private readonly gate: WriteGate,
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
    const result = await this.write(() =>
      this.c.findOneAndUpdate(mongoFilter(filter), update, { returnDocument: 'after' }),
    );
    return (result as T | null) ?? null;
  }

  async deleteById(id: string): Promise<boolean> {
    return (await this.write(() => this.c.deleteOne({ _id: id }))).deletedCount === 1;
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
    if (error instanceof MongoServerError && error.code === 11000) {
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
