import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import { newId } from './new-id';
import {
  type Collection,
  type DocChanges,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDoc,
  type Store,
  type StoredDoc,
  splitChanges,
} from './store';

/**
 * The default store: one append-only file per collection under `<dataDir>/db`, loaded into
 * memory at start. Every acknowledged write has been appended to its file (handed to the
 * kernel) before the promise resolves, so it survives the process being killed.
 */
export async function openEmbeddedStore(dataDir: string): Promise<Store> {
  const dir = path.join(dataDir, 'db');
  await mkdir(dir, { recursive: true });
  const collections = new Map<string, EmbeddedCollection<StoredDoc>>();

  return {
    kind: 'embedded',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(path.join(dir, `${name}.db`));
        collections.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    async close() {
      // Loading compacts each file; nothing is buffered, so there is nothing to flush.
      await Promise.all([...collections.values()].map((c) => c.ready));
    },
  };
}

class EmbeddedCollection<T extends StoredDoc> implements Collection<T> {
  private readonly db: Datastore<T>;
  readonly ready: Promise<void>;

  constructor(filename: string) {
    this.db = new Datastore<T>({ filename, timestampData: false });
    this.ready = this.db.loadDatabaseAsync();
  }

  async insertOne(doc: NewDoc<T>): Promise<T> {
    await this.ready;
    const now = new Date();
    const full = { ...doc, _id: newId(), createdAt: now, updatedAt: now } as unknown as T;
    return translate(() => this.db.insertAsync(full)) as Promise<T>;
  }

  async insertMany(docs: Array<NewDoc<T> & Partial<StoredDoc>>): Promise<number> {
    await this.ready;
    const now = new Date();
    const full = docs.map((doc) => ({
      _id: newId(),
      createdAt: now,
      updatedAt: now,
      ...doc,
    })) as unknown as T[];
    const inserted = await translate(() => this.db.insertAsync(full));
    return inserted.length;
  }

  async findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter): Promise<T | null> {
    await this.ready;
    return (await this.db.findOneAsync(filter)) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    await this.ready;
    let cursor = this.db.findAsync(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor) as T[];
  }

  async count(filter: Filter = {}): Promise<number> {
    await this.ready;
    return this.db.countAsync(filter);
  }

  updateById(id: string, changes: DocChanges<T>): Promise<T | null> {
    return this.updateOne({ _id: id }, changes);
  }

  async updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null> {
    await this.ready;
    const { set, unset } = splitChanges(changes as Record<string, unknown>);
    const update: Record<string, unknown> = { $set: { ...set, updatedAt: new Date() } };
    if (Object.keys(unset).length) update.$unset = unset;
    const result = await translate(() =>
      this.db.updateAsync(filter, update, { returnUpdatedDocs: true, multi: false }),
    );
    return (result.affectedDocuments as T | null) ?? null;
  }

  async deleteById(id: string): Promise<boolean> {
    await this.ready;
    return (await this.db.removeAsync({ _id: id }, { multi: false })) === 1;
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    await this.ready;
    await this.db.ensureIndexAsync({ fieldName: index.field, unique: index.unique ?? false });
  }
}

async function translate<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    const e = error as { errorType?: string; key?: string; message?: string };
    if (e.errorType === 'uniqueViolated') throw new DuplicateKeyError(e.message?.match(/'(\w+)'/)?.[1]);
    throw error;
  }
}
