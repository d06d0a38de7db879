/**
 * The store port. Repositories are the only callers; two adapters implement it: the embedded
 * store (default: SQLite, one file under DATA_DIR/db) and MongoDB through the official driver.
 *
 * Filters use the subset of the MongoDB query language that both adapters understand:
 * equality, $ne, $in, $nin, $lt/$lte/$gt/$gte, $or, $and, $exists, plus one operator of our own:
 * `{ field: { $contains: 'text' } }`, the text anywhere in the field, taken literally, in any
 * letter case (no regular expressions: the embedded store answers it from a trigram index).
 */

import type { CounterStore } from './counters';
import type { StoreInspector } from './store-inspector';

export interface StoredDoc {
  _id: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a caller passes in: the store layer sets `_id`, `createdAt` and `updatedAt` itself. */
export type NewDoc<T extends StoredDoc> = Omit<T, keyof StoredDoc>;
export type DocChanges<T extends StoredDoc> = Partial<NewDoc<T>>;

export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface CountOptions {
  /** Stop counting at this many: the answer is then `limit`, meaning "at least this many". */
  limit?: number;
}

export interface BatchOptions {
  sort?: SortSpec;
  /** Documents per batch; 250 unless given. */
  batchSize?: number;
}

export interface IndexSpec {
  field: string;
  unique?: boolean;
  /** A field with few distinct values: the store keeps a count per value, so `count({ field: 'text' })` never scans. */
  counted?: boolean;
  /** The field is searched with `$contains`: the store keeps a substring index for it. */
  search?: boolean;
  /**
   * The field is a sort order of a paged list: the store keeps what it needs to reach any page
   * of that order (the field first, then `_id`, unfiltered) without reading every entry before it.
   */
  paged?: boolean;
  /**
   * Most documents lack the field (a member's billing): the embedded store leaves them out of the
   * index and of the kept counts, so a bulk insert of such documents writes nothing for it. Only
   * lookups of a value (`field: value`, `$in`) use such an index; it cannot be `paged`. Applied
   * when the index is made (an index made before stays whole); MongoDB's index stays as it is.
   */
  sparse?: boolean;
}

export interface Collection<T extends StoredDoc> {
  insertOne(doc: NewDoc<T>): Promise<T>;
  /** Bulk insert for seeding; timestamps may be given, else they are set to now. */
  insertMany(docs: Array<NewDoc<T> & Partial<StoredDoc>>): Promise<number>;
  findById(id: string): Promise<T | null>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * Every matching document, a batch at a time, without holding them all in memory or keeping
   * other requests waiting (the CSV export).
   */
  findInBatches(filter: Filter, options?: BatchOptions): AsyncIterable<T[]>;
  /** Matching documents; with `limit`, the work stops there (a search matching most of a million). */
  count(filter?: Filter, options?: CountOptions): Promise<number>;
  /**
   * Sets the given fields (undefined values are unset) and bumps `updatedAt`; null when absent.
   * A field inside an object may be named by its dotted path (`'positions.abc': 3`): it is set
   * alone and its siblings kept, so two writes of two such fields at once lose neither.
   */
  updateById(id: string, changes: DocChanges<T>): Promise<T | null>;
  /** Like updateById, but only when `filter` also matches: a compare-and-set. */
  updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null>;
  deleteById(id: string): Promise<boolean>;
  ensureIndex(index: IndexSpec): Promise<void>;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  collection<T extends StoredDoc>(name: string): Collection<T>;
  /** Every collection of the store's own database, including ones this process has not opened. */
  collectionNames(): Promise<string[]>;
  /** Read-only self-description for the console (see store-inspector.ts). */
  readonly inspector: StoreInspector;
  /** The rate limits' counters, shared by every process on this store (see counters.ts). */
  readonly counters: CounterStore;
  /**
   * Refuses writes from now on (503 with `reason`) and resolves once writes under way are done;
   * used while the data is copied to another store. The resolved function lets writes in again.
   */
  pauseWrites(reason: string): Promise<() => void>;
  close(): Promise<void>;
}

/** Thrown by both adapters when a unique index would be violated. */
export class DuplicateKeyError extends Error {
  constructor(readonly field?: string) {
    super(`Duplicate value${field ? ` for ${field}` : ''}`);
    this.name = 'DuplicateKeyError';
  }
}

export function splitChanges(changes: Record<string, unknown>): {
  set: Record<string, unknown>;
  unset: Record<string, true>;
} {
  const set: Record<string, unknown> = {};
  const unset: Record<string, true> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key === '_id' || key === 'createdAt' || key === 'updatedAt') continue;
    if (value === undefined) unset[key] = true;
    else set[key] = value;
  }
  return { set, unset };
}
