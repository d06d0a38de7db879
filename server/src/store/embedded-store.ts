import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import {
  describeIndexes,
  type EmbeddedCollectionStats,
  embeddedInspector,
  type NedbIndexes,
  StoredSizes,
} from './embedded-inspector';
import { lockEmbeddedStore } from './embedded-lock';
import { compileFilter, compileSort, filterKey, firstInOrder, nedbModel } from './embedded-query';
import { Snapshot } from './embedded-snapshot';
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
import { WriteGate } from './write-gate';

/**
 * The default store: one append-only file per collection under `<dataDir>/db`, loaded into
 * memory at start. Every acknowledged write has been appended to its file (handed to the
 * kernel) before the promise resolves, so it survives the process being killed.
 */
export async function openEmbeddedStore(dataDir: string): Promise<Store> {
  const dir = path.join(dataDir, 'db');
  await mkdir(dir, { recursive: true });
  const unlock = await lockEmbeddedStore(dir);
  const collections = new Map<string, EmbeddedCollection<StoredDoc>>();
  let closed = false;
  const gate = new WriteGate();
  const open = (name: string) => {
    if (closed) throw new Error('The store is closed');
    let collection = collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection(path.join(dir, `${name}.db`), gate);
      collections.set(name, collection);
    }
    return collection;
  };
  // One file per collection; nedb's `name.db~` files are its half-written compactions.
  const collectionNames = async () => {
    const files = (await readdir(dir))
      .filter((file) => file.endsWith('.db'))
      .map((file) => file.slice(0, -3));
    return [...new Set([...files, ...collections.keys()])].sort();
  };

  return {
    kind: 'embedded',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      return open(name) as unknown as Collection<T>;
    },
    collectionNames,
    inspector: embeddedInspector(dir, open, collectionNames),
    pauseWrites: (reason) => gate.pause(reason),
    async close() {
      if (closed) return;
      closed = true;
      // Loading compacts each file; nothing is buffered, so there is nothing to flush. Any
      // later call fails instead of writing files another process may have opened by then.
      await Promise.all([...collections.values()].map((c) => c.close()));
      await unlock();
    },
  };
}

/** How many recent filters' match lists are kept (a list's count and its page share one scan). */
const REMEMBERED_MATCHES = 8;

class EmbeddedCollection<T extends StoredDoc> implements Collection<T> {
  private readonly db: Datastore<T>;
  /** Awaited by every operation first; rejects once the store is closed. */
  private ready: Promise<void>;
  /**
   * Every document, as a flat array kept in step with each write, so that sorted finds and counts
   * need not walk nedb's _id tree (30 ms for 100,000 documents). Built on first use; dropped
   * (and rebuilt later) after any write that fails, when the memory state is not certain.
   * Its documents are never handed out: callers get copies, as nedb gives.
   */
  private snapshot: Snapshot<T> | null = null;
  /** Match lists by filter key, valid until the next write. */
  private readonly matches = new Map<string, number[]>();
  /** Each document's stored size, made when the console first asks and kept in step with the snapshot. */
  private sizes: StoredSizes | null = null;

  constructor(
    filename: string,
    private readonly gate: WriteGate,
  ) {
    this.db = new Datastore<T>({ filename, timestampData: false });
    this.ready = this.db.loadDatabaseAsync();
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.ready = Promise.reject(new Error('The store is closed'));
    this.ready.catch(() => undefined);
  }

  async insertOne(doc: NewDoc<T>): Promise<T> {
    await this.ready;
    const now = new Date();
    const full = { ...doc, _id: newId(), createdAt: now, updatedAt: now } as unknown as T;
    const inserted = (await this.write(() => this.db.insertAsync(full))) as T;
    this.remember(inserted);
    return inserted;
  }

  async insertMany(docs: Array<NewDoc<T> & Partial<StoredDoc>>): Promise<number> {
    await this.ready;
    const now = new Date();
    const full = docs.map((doc) => ({
      // A copy brings its own ids: drawing random bytes for each one only to drop them is waste.
      _id: doc._id ?? newId(),
      createdAt: now,
      updatedAt: now,
      ...doc,
    })) as unknown as T[];
    const inserted = await this.write(() => this.db.insertAsync(full));
    for (const doc of inserted) this.remember(doc as T);
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
    if (!options.sort) {
      // Unsorted reads keep nedb's own path: it uses indexes and stops at the limit.
      let cursor = this.db.findAsync(filter);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit) cursor = cursor.limit(options.limit);
      return (await cursor) as T[];
    }
    const snapshot = this.current();
    const positions = this.matching(filter) ?? snapshot.all;
    const { docs } = snapshot;
    const generic = compileSort(options.sort);
    const order =
      snapshot.orderOf(options.sort) ??
      ((a: number, b: number) => generic(docs[a] as never, docs[b] as never));
    const skip = options.skip ?? 0;
    const wanted = options.limit
      ? firstInOrder(positions, order, skip + options.limit)
      : [...positions].sort(order);
    return wanted.slice(skip).map((at) => nedbModel.deepCopy(docs[at]!));
  }

  async count(filter: Filter = {}): Promise<number> {
    await this.ready;
    return (this.matching(filter) ?? this.current().docs).length;
  }

  updateById(id: string, changes: DocChanges<T>): Promise<T | null> {
    return this.updateOne({ _id: id }, changes);
  }

  async updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null> {
    await this.ready;
    const { set, unset } = splitChanges(changes as Record<string, unknown>);
    const update: Record<string, unknown> = { $set: { ...set, updatedAt: new Date() } };
    if (Object.keys(unset).length) update.$unset = unset;
    const result = await this.write(() =>
      this.db.updateAsync(filter, update, { returnUpdatedDocs: true, multi: false }),
    );
    const updated = (result.affectedDocuments as T | null) ?? null;
    if (updated) this.remember(updated);
    return updated;
  }

  async deleteById(id: string): Promise<boolean> {
    await this.ready;
    const removed = (await this.write(() => this.db.removeAsync({ _id: id }, { multi: false }))) === 1;
    if (removed) this.forget(id);
    return removed;
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    await this.ready;
    await this.db.ensureIndexAsync({ fieldName: index.field, unique: index.unique ?? false });
  }

  /** Count, bytes of the stored JSON and nedb's indexes, for the console (embedded-inspector.ts). */
  async describe(): Promise<EmbeddedCollectionStats> {
    await this.ready;
    const { docs } = this.current();
    this.sizes ??= new StoredSizes(docs);
    const { indexes } = this.db as unknown as { indexes: NedbIndexes };
    return { count: docs.length, dataSize: this.sizes.total, indexes: describeIndexes(indexes) };
  }

  /** The first `limit` documents in the store's own order, for the explorer: the rest is never visited. */
  async first(limit: number): Promise<T[]> {
    await this.ready;
    return this.current()
      .docs.slice(0, limit)
      .map((doc) => nedbModel.deepCopy(doc));
  }

  private current(): Snapshot<T> {
    this.snapshot ??= new Snapshot(this.db.getAllData() as T[]);
    return this.snapshot;
  }

  /** Positions in the snapshot of the documents matching `filter`; null for "every document". */
  private matching(filter: Filter): number[] | null {
    const snapshot = this.current();
    if (Object.keys(filter).length === 0) return null;
    const key = filterKey(filter);
    const known = key === null ? undefined : this.matches.get(key);
    if (known) return known;
    const test = compileFilter(filter, snapshot);
    const found: number[] = [];
    snapshot.docs.forEach((doc, i) => {
      if (test(doc as never, i)) found.push(i);
    });
    if (key !== null) {
      if (this.matches.size >= REMEMBERED_MATCHES) this.matches.delete(this.matches.keys().next().value!);
      this.matches.set(key, found);
    }
    return found;
  }

  /** Runs a write; any change (or a failure that may have left memory unsure) ends cached answers. */
  private async write<R>(run: () => Promise<R>): Promise<R> {
    this.matches.clear();
    try {
      return await this.gate.run(() => translate(run));
    } catch (error) {
      // A refused duplicate changes nothing; anything else may have, so rebuild from nedb later.
      if (!(error instanceof DuplicateKeyError)) {
        this.snapshot = null;
        this.sizes = null;
      }
      throw error;
    } finally {
      this.matches.clear();
    }
  }

  /** Puts the stored version of a written document into the snapshot (a copy, as callers get theirs). */
  private remember(doc: T): void {
    this.snapshot?.put(nedbModel.deepCopy(doc));
    this.sizes?.put(doc);
  }

  private forget(id: string): void {
    this.snapshot?.remove(id);
    this.sizes?.remove(id);
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
