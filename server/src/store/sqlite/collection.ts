import { setImmediate as nextTurn } from 'node:timers/promises';
import { newId } from '../new-id';
import {
  type BatchOptions,
  type Collection,
  type CountOptions,
  type DocChanges,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDoc,
  type StoredDoc,
  splitChanges,
} from '../store';
import type { WriteGate } from '../write-gate';
import { type DocRow, encodeDoc, toDoc } from './documents';
import { connect, type SqliteEngine } from './engine';
import { filterSql, ident, orderSql } from './query';
import { ReadPlan } from './read-plan';

/** A reading pass (the export) goes through its rows once: a small cache of its own is enough. */
const PASS_CACHE_KIB = 2048;

/** A collection of the embedded store: a table of documents, read through its plan, written in IMMEDIATE transactions. */
export class SqliteCollection<T extends StoredDoc> implements Collection<T> {
  private readonly t: string;
  private readonly plan: ReadPlan<T>;

  constructor(
    private readonly engine: SqliteEngine,
    private readonly name: string,
    private readonly gate: WriteGate,
  ) {
    this.t = ident(name);
    this.plan = new ReadPlan<T>(engine, name);
  }

  async insertOne(doc: NewDoc<T>): Promise<T> {
    const now = new Date();
    const full = { ...doc, _id: newId(), createdAt: now, updatedAt: now } as unknown as T;
    await this.write(() => this.insertRow(full as unknown as Record<string, unknown>));
    return structuredClone(full);
  }

  async insertMany(docs: Array<NewDoc<T> & Partial<StoredDoc>>): Promise<number> {
    const now = new Date();
    const full = docs.map((doc) => ({ _id: doc._id ?? newId(), createdAt: now, updatedAt: now, ...doc }));
    await this.write(() =>
      this.engine.db.transaction(() => {
        for (const doc of full) this.insertRow(doc);
      })(),
    );
    return full.length;
  }

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.find(filter, { limit: 1 }))[0] ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.read(() => this.plan.find(filter, options), []);
  }

  async *findInBatches(filter: Filter, options: BatchOptions = {}): AsyncGenerator<T[]> {
    if (!this.engine.has(this.name)) return;
    const { where, params } = filterSql(filter, this.engine.catalog.context(this.name));
    const size = options.batchSize ?? 250;
    // Its own read-only connection: it reads one consistent snapshot while writes go on, and
    // the turns between batches leave the event loop to other requests.
    const reader = this.engine.run(() => connect(this.engine.file, { readonly: true }, PASS_CACHE_KIB));
    try {
      const rows = reader
        .prepare(
          `SELECT id, json(doc) AS doc, dates FROM ${this.t} WHERE ${where}${orderSql(this.plan.sortOf(options.sort))}`,
        )
        .iterate(...params) as IterableIterator<DocRow>;
      let batch: T[] = [];
      for (const row of rows) {
        batch.push(toDoc<T>(row));
        if (batch.length >= size) {
          yield batch;
          batch = [];
          await nextTurn();
        }
      }
      if (batch.length) yield batch;
    } finally {
      reader.close();
    }
  }

  async count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    return this.read(() => this.plan.count(filter, options.limit ?? -1), 0);
  }

  updateById(id: string, changes: DocChanges<T>): Promise<T | null> {
    return this.updateOne({ _id: id }, changes);
  }

  async updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null> {
    const { set, unset } = splitChanges(changes as Record<string, unknown>);
    // In write()'s IMMEDIATE transaction: the read below already holds the write lock, so a
    // compare-and-set from another process (workers share the file) waits its turn instead of
    // failing on a stale snapshot.
    return this.write(() => {
      const { where, params } = filterSql(filter, this.engine.catalog.context(this.name));
      const row = this.engine
        .statement(`SELECT seq, id, json(doc) AS doc, dates FROM ${this.t} WHERE ${where} LIMIT 1`)
        .get(...params) as (DocRow & { seq: number }) | undefined;
      if (!row) return null;
      const doc = toDoc<T>(row) as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(set)) setPath(doc, key, structuredClone(value));
      for (const key of Object.keys(unset)) unsetPath(doc, key);
      doc.updatedAt = new Date();
      const { _id, ...fields } = doc;
      const encoded = encodeDoc(fields);
      this.engine
        .statement(`UPDATE ${this.t} SET doc = jsonb(?), dates = ? WHERE seq = ?`)
        .run(encoded.doc, encoded.dates, row.seq);
      return doc as unknown as T;
    });
  }

  async deleteById(id: string): Promise<boolean> {
    return this.write(
      () => this.engine.statement(`DELETE FROM ${this.t} WHERE id = ?`).run(id).changes === 1,
    );
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    await this.write(() => this.engine.catalog.ensureIndex(this.name, index));
  }

  private insertRow(doc: Record<string, unknown>): void {
    const { _id, ...fields } = doc;
    const encoded = encodeDoc(fields);
    this.engine
      .statement(`INSERT INTO ${this.t} (id, doc, dates) VALUES (?, jsonb(?), ?)`)
      .run(_id, encoded.doc, encoded.dates);
  }

  /** Until its first write creates the table, the collection reads as empty (and is not created by reading). */
  private read<R>(work: () => R, empty: R): Promise<R> {
    return Promise.resolve(this.engine.run(() => (this.engine.has(this.name) ? work() : empty)));
  }

  private write<R>(work: () => R): Promise<R> {
    return this.gate.run(async () => {
      this.engine.run(() => this.engine.catalog.ensureCollection(this.name));
      // Committed with the other writes of this turn of the event loop (group-commit.ts), in
      // an IMMEDIATE transaction: the write lock is taken at its start, as a transaction that
      // reads first and writes later could not take it once another worker has written
      // meanwhile (SQLITE_BUSY). Anchors moved out of bounds by the write are settled before
      // it commits.
      return this.engine.write(() => {
        this.engine.changed(this.name);
        const result = work();
        this.engine.rebalance();
        return result;
      });
    });
  }
}

function setPath(doc: Record<string, unknown>, key: string, value: unknown): void {
  const keys = key.split('.');
  let holder = doc;
  for (const part of keys.slice(0, -1)) {
    if (holder[part] === null || typeof holder[part] !== 'object') holder[part] = {};
    holder = holder[part] as Record<string, unknown>;
  }
  holder[keys[keys.length - 1]!] = value;
}

function unsetPath(doc: Record<string, unknown>, key: string): void {
  const keys = key.split('.');
  let holder: Record<string, unknown> | undefined = doc;
  for (const part of keys.slice(0, -1)) holder = holder?.[part] as Record<string, unknown> | undefined;
  if (holder) delete holder[keys[keys.length - 1]!];
}
