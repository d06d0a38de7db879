import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { StartupError, unwritableFolder } from '../lib/startup-error';
import { lockEmbeddedStore } from './embedded-lock';
import { importNedbFiles } from './nedb-import';
import { newId } from './new-id';
import { openSqliteCounters } from './sqlite-counters';
import { decodeDoc, encodeDoc } from './sqlite-documents';
import { storeFault } from './sqlite-faults';
import { sqliteInspector } from './sqlite-inspector';
import { checkField, fieldSql, filterSql, ident, orderSql, type QueryContext } from './sqlite-query';
import {
  type BatchOptions,
  type Collection,
  type DocChanges,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type NewDoc,
  type SortSpec,
  type Store,
  type StoredDoc,
  splitChanges,
} from './store';
import { WriteGate } from './write-gate';

/** The one database file of the embedded store, in DATA_DIR/db. */
export const SQLITE_FILE = 'site.sqlite';
/** Page cache of the server's connection: the hot index pages of a million members, within the memory budget. */
const CACHE_KIB = 16_384;
/** A reading pass (the export) goes through its rows once: a small cache of its own is enough. */
const PASS_CACHE_KIB = 2048;
/** How long a statement waits for another connection's write lock before giving up. */
const BUSY_TIMEOUT_MS = 5000;
/** Pages further than this are found by walking the sort index alone, then reading just the page's rows. */
const FAR_SKIP = 200;
/** Above this many matches, a sorted page of a text search walks the sort index instead of the search index. */
const COMMON_MATCHES = 2000;

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export interface IndexRecord {
  field: string;
  unique: boolean;
  counted: boolean;
  search: boolean;
}

/** Opens a connection with the settings every connection to the file uses. */
export function connect(
  file: string,
  options: Database.Options = {},
  cacheKib = CACHE_KIB,
): Database.Database {
  const db = new Database(file, options);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${cacheKib}`);
  // Unicode-aware case folding for $contains on text the trigram index cannot help with.
  db.function('casefold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : null,
  );
  return db;
}

/**
 * The default store: SQLite in one file, DATA_DIR/db/site.sqlite. WAL journal with
 * synchronous=FULL: a write resolves only once its commit is on stable storage. Each collection
 * is a table of JSON documents; its indexes are SQL indexes on the fields' json_extract
 * expressions; counts live in a table kept by triggers in the same transactions as the writes.
 */
export async function openEmbeddedStore(
  dataDir: string,
  notice: (message: string) => void = (message) => console.log(message),
  /** The workers of one supervisor hold the lock under its pid (embedded-lock.ts). */
  { lockHolder }: { lockHolder?: number } = {},
): Promise<Store> {
  const dir = path.join(dataDir, 'db');
  const unusable = async (error: unknown): Promise<never> => {
    throw (error as NodeJS.ErrnoException).code
      ? await unwritableFolder('the database folder', dir, error)
      : error;
  };
  await mkdir(dir, { recursive: true }).catch(unusable);
  const { release: unlock, joined } = await lockEmbeddedStore(dir, { holder: lockHolder }).catch(unusable);
  const file = path.join(dir, SQLITE_FILE);
  let db: Database.Database;
  try {
    // Beside another worker the log is in use, not left over.
    const leftover = joined ? null : await stat(`${file}-wal`).catch(() => null);
    db = connect(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    createCatalog(db);
    if (leftover && leftover.size > 0) {
      notice(
        `The database ${file} was not closed cleanly last time; SQLite replayed the ${leftover.size} bytes of its write-ahead log (committed writes kept, any unfinished one discarded).`,
      );
    }
  } catch (error) {
    await unlock();
    if (!(error instanceof Database.SqliteError)) throw error;
    throw new StartupError(
      `Cannot start: the database ${file} cannot be opened (${error.code}: ${error.message}). Check that the disk has room and the folder is writable, then start again.`,
    );
  }
  const engine = new SqliteEngine(db, file, dir);
  try {
    await importNedbFiles(dir, engine, notice);
  } catch (error) {
    db.close();
    await unlock();
    throw error;
  }
  let counters: ReturnType<typeof openSqliteCounters>;
  try {
    counters = openSqliteCounters(dir);
  } catch (error) {
    db.close();
    await unlock();
    throw error;
  }
  const gate = new WriteGate();
  const collections = new Map<string, SqliteCollection<StoredDoc>>();
  let closed = false;
  const open = (name: string) => {
    if (closed) throw new Error('The store is closed');
    let collection = collections.get(name);
    if (!collection) {
      collection = new SqliteCollection(engine, name, gate);
      collections.set(name, collection);
    }
    return collection;
  };

  return {
    kind: 'embedded',
    collection<T extends StoredDoc>(name: string): Collection<T> {
      return open(name) as unknown as Collection<T>;
    },
    collectionNames: async () => engine.collectionNames(),
    inspector: sqliteInspector(engine),
    counters,
    pauseWrites: (reason) => gate.pause(reason),
    async close() {
      if (closed) return;
      closed = true;
      counters.close();
      engine.close();
      await unlock();
    },
  };
}

function createCatalog(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS "$collections" (
      name TEXT PRIMARY KEY, count INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS "$indexes" (
      collection TEXT NOT NULL, field TEXT NOT NULL, is_unique INTEGER NOT NULL,
      counted INTEGER NOT NULL, search INTEGER NOT NULL, PRIMARY KEY (collection, field)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS "$tallies" (
      collection TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (collection, field, value)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS "$meta" (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
  `);
}

/** The database connection and the catalog of collections and indexes it holds. */
export class SqliteEngine {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly created = new Set<string>();
  private readonly indexes = new Map<string, Map<string, IndexRecord>>();
  /** Counts of recent filters by collection, dropped at the collection's next write (a list's count and its page share one). */
  private readonly counts = new Map<string, Map<string, number>>();
  private open = true;
  /** SQLite's count of commits by other connections (other workers) when this one last looked. */
  private dataVersion: number;
  private readonly dataVersionQuery: Database.Statement;

  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly dir: string,
  ) {
    this.dataVersionQuery = db.prepare('PRAGMA data_version').pluck();
    this.dataVersion = this.dataVersionQuery.get() as number;
    this.loadCatalog();
  }

  /**
   * The workers of one supervisor share the file: when another connection has committed since
   * the last look (`PRAGMA data_version`, a near-free check), the remembered counts no longer hold
   * and the catalog may have new collections or indexes.
   */
  private followOthers(): void {
    const version = this.dataVersionQuery.get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.counts.clear();
    this.loadCatalog();
  }

  private loadCatalog(): void {
    const db = this.db;
    for (const row of db.prepare('SELECT name FROM "$collections"').all() as Array<{ name: string }>)
      this.created.add(row.name);
    const rows = db.prepare('SELECT * FROM "$indexes"').all() as Array<Record<string, string | number>>;
    for (const row of rows) {
      this.indexMap(String(row.collection)).set(String(row.field), {
        field: String(row.field),
        unique: row.is_unique === 1,
        counted: row.counted === 1,
        search: row.search === 1,
      });
    }
  }

  /** Runs `work` against the open database, with SQLite's refusals translated into the product's. */
  run<R>(work: () => R): R {
    if (!this.open) throw new Error('The store is closed');
    try {
      return work();
    } catch (error) {
      throw storeFault(error, this.dir);
    }
  }

  statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      if (this.statements.size > 500) this.statements.clear();
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  collectionNames(): string[] {
    this.followOthers();
    return [...this.created].sort();
  }

  /** Asked before every read, so it is where other workers' commits are noticed. */
  has(name: string): boolean {
    this.followOthers();
    return this.created.has(name);
  }

  indexesOf(name: string): IndexRecord[] {
    this.followOthers();
    return [...(this.indexes.get(name)?.values() ?? [])];
  }

  context(name: string): QueryContext {
    return {
      searchTable: (field) => (this.indexes.get(name)?.get(field)?.search ? searchTable(name, field) : null),
    };
  }

  /** Creates the collection's table and the triggers that keep its count and size. */
  ensureCollection(name: string): void {
    if (this.created.has(name)) return;
    if (!COLLECTION_NAME.test(name)) throw new Error(`The store does not take this collection name: ${name}`);
    const t = ident(name);
    const me = literal(name);
    this.db.transaction(() => {
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${t} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, doc BLOB NOT NULL, dates TEXT);
        INSERT OR IGNORE INTO "$collections" (name) VALUES (${me});
        CREATE TRIGGER IF NOT EXISTS ${ident(`${name}$count+`)} AFTER INSERT ON ${t} BEGIN
          UPDATE "$collections" SET count = count + 1, size = size + octet_length(NEW.doc) WHERE name = ${me};
        END;
        CREATE TRIGGER IF NOT EXISTS ${ident(`${name}$count-`)} AFTER DELETE ON ${t} BEGIN
          UPDATE "$collections" SET count = count - 1, size = size - octet_length(OLD.doc) WHERE name = ${me};
        END;
        CREATE TRIGGER IF NOT EXISTS ${ident(`${name}$size`)} AFTER UPDATE OF doc ON ${t} BEGIN
          UPDATE "$collections" SET size = size + octet_length(NEW.doc) - octet_length(OLD.doc) WHERE name = ${me};
        END;
      `);
    })();
    this.created.add(name);
  }

  ensureIndex(name: string, spec: IndexSpec): void {
    const field = checkField(spec.field);
    if (field === '_id') return; // the id column is indexed already
    this.ensureCollection(name);
    const known = this.indexMap(name).get(field);
    const wanted: IndexRecord = {
      field,
      unique: Boolean(spec.unique) || Boolean(known?.unique),
      counted: Boolean(spec.counted) || Boolean(known?.counted),
      search: Boolean(spec.search) || Boolean(known?.search),
    };
    if (
      known &&
      known.unique === wanted.unique &&
      known.counted === wanted.counted &&
      known.search === wanted.search
    )
      return;
    const t = ident(name);
    const expr = fieldSql(field);
    const of = (row: string) => fieldSql(field, row);
    const me = literal(name);
    const f = literal(field);
    this.db.transaction(() => {
      if (wanted.unique && !known?.unique) {
        this.db.exec(`DROP INDEX IF EXISTS ${ident(`${name}$${field}`)}`);
        this.db.exec(`CREATE UNIQUE INDEX ${ident(`${name}$${field}`)} ON ${t} (${expr})`);
      } else if (!known) {
        // The id makes each key unique, so a sort with the id as tie-breaker reads the index in order.
        this.db.exec(`CREATE INDEX IF NOT EXISTS ${ident(`${name}$${field}`)} ON ${t} (${expr}, id)`);
      }
      if (wanted.counted && !known?.counted) {
        this.db.exec(`
          INSERT INTO "$tallies" SELECT ${me}, ${f}, json_quote(${expr}), count(*) FROM ${t} WHERE true GROUP BY 3;
          CREATE TRIGGER ${ident(`${name}$${field}$tally+`)} AFTER INSERT ON ${t} BEGIN
            INSERT INTO "$tallies" VALUES (${me}, ${f}, json_quote(${of('NEW')}), 1)
              ON CONFLICT DO UPDATE SET n = n + 1;
          END;
          CREATE TRIGGER ${ident(`${name}$${field}$tally-`)} AFTER DELETE ON ${t} BEGIN
            UPDATE "$tallies" SET n = n - 1
              WHERE collection = ${me} AND field = ${f} AND value = json_quote(${of('OLD')});
          END;
          CREATE TRIGGER ${ident(`${name}$${field}$tally~`)} AFTER UPDATE OF doc ON ${t}
            WHEN ${of('OLD')} IS NOT ${of('NEW')} BEGIN
            UPDATE "$tallies" SET n = n - 1
              WHERE collection = ${me} AND field = ${f} AND value = json_quote(${of('OLD')});
            INSERT INTO "$tallies" VALUES (${me}, ${f}, json_quote(${of('NEW')}), 1)
              ON CONFLICT DO UPDATE SET n = n + 1;
          END;
        `);
      }
      if (wanted.search && !known?.search) {
        const s = ident(searchTable(name, field));
        // Contentless: the index keeps trigrams only, the text stays in the document.
        this.db.exec(`
          CREATE VIRTUAL TABLE ${s} USING fts5(value, tokenize = 'trigram', content = '', contentless_delete = 1);
          INSERT INTO ${s} (rowid, value) SELECT seq, ${expr} FROM ${t} WHERE ${expr} IS NOT NULL;
          CREATE TRIGGER ${ident(`${name}$${field}$search+`)} AFTER INSERT ON ${t}
            WHEN ${of('NEW')} IS NOT NULL BEGIN
            INSERT INTO ${s} (rowid, value) VALUES (NEW.seq, ${of('NEW')});
          END;
          CREATE TRIGGER ${ident(`${name}$${field}$search-`)} AFTER DELETE ON ${t} BEGIN
            DELETE FROM ${s} WHERE rowid = OLD.seq;
          END;
          CREATE TRIGGER ${ident(`${name}$${field}$search~`)} AFTER UPDATE OF doc ON ${t}
            WHEN ${of('OLD')} IS NOT ${of('NEW')} BEGIN
            DELETE FROM ${s} WHERE rowid = OLD.seq;
            INSERT INTO ${s} (rowid, value) SELECT NEW.seq, ${of('NEW')} WHERE ${of('NEW')} IS NOT NULL;
          END;
        `);
      }
      this.db
        .prepare('INSERT OR REPLACE INTO "$indexes" VALUES (?, ?, ?, ?, ?)')
        .run(name, field, Number(wanted.unique), Number(wanted.counted), Number(wanted.search));
    })();
    this.indexMap(name).set(field, wanted);
  }

  /** The kept count for "every document" or for one text value of a counted field; null when none is kept. */
  keptCount(name: string, filter: Filter): number | null {
    const keys = Object.keys(filter);
    if (keys.length === 0) {
      const row = this.statement('SELECT count FROM "$collections" WHERE name = ?').get(name) as
        | { count: number }
        | undefined;
      return row?.count ?? 0;
    }
    const field = keys[0]!;
    const value = filter[field];
    if (keys.length !== 1 || typeof value !== 'string' || !this.indexes.get(name)?.get(field)?.counted)
      return null;
    const row = this.statement(
      'SELECT n FROM "$tallies" WHERE collection = ? AND field = ? AND value = json_quote(?)',
    ).get(name, field, value) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  rememberedCount(name: string, key: string): number | undefined {
    this.followOthers();
    return this.counts.get(name)?.get(key);
  }

  rememberCount(name: string, key: string, count: number): void {
    let known = this.counts.get(name);
    if (!known) {
      known = new Map();
      this.counts.set(name, known);
    }
    if (known.size >= 64) known.delete(known.keys().next().value!);
    known.set(key, count);
  }

  /** Called for every write: remembered counts of the collection no longer hold. */
  changed(name: string): void {
    this.counts.delete(name);
  }

  getMeta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM "$meta" WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO "$meta" VALUES (?, ?)').run(key, value);
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.statements.clear();
    // Closing checkpoints the write-ahead log into the database file and removes it.
    this.db.close();
  }

  private indexMap(name: string): Map<string, IndexRecord> {
    let map = this.indexes.get(name);
    if (!map) {
      map = new Map();
      this.indexes.set(name, map);
    }
    return map;
  }
}

export const searchTable = (collection: string, field: string) => `${collection}$search$${field}`;

interface Row {
  id: string;
  doc: string;
  dates: string | null;
}

const toDoc = <T extends StoredDoc>(row: Row): T => decodeDoc<T>(row.id, row.doc, row.dates);

class SqliteCollection<T extends StoredDoc> implements Collection<T> {
  private readonly t: string;

  constructor(
    private readonly engine: SqliteEngine,
    private readonly name: string,
    private readonly gate: WriteGate,
  ) {
    this.t = ident(name);
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
    return this.read(() => {
      const sort = this.effectiveSort(options.sort);
      let { where, params } = filterSql(filter, this.engine.context(this.name));
      if (sort && options.limit && where.includes(' MATCH ') && this.countOf(filter) > COMMON_MATCHES) {
        // Common text: the sort index in order, each row checked, meets a page of matches at once.
        ({ where, params } = filterSql(filter, { ...this.engine.context(this.name), rowByRow: true }));
      }
      let limit = options.limit ?? -1;
      let skip = options.skip ?? 0;
      let backwards = false;
      if (sort && skip > FAR_SKIP && limit > 0) {
        // A page past the middle is reached from the other end: the index walk is never longer than half the list.
        const total = this.countOf(filter);
        if (skip >= total) return [];
        if (skip > total / 2) {
          backwards = true;
          limit = Math.min(limit, total - skip);
          skip = total - skip - limit;
        }
      }
      const order = orderSql(backwards ? reversed(sort!) : sort);
      const sql =
        skip > FAR_SKIP && order
          ? // Skipping walks only the (covering) sort index; the documents of the page alone are read.
            `SELECT id, json(doc) AS doc, dates FROM ${this.t} WHERE seq IN (SELECT seq FROM ${this.t} WHERE ${where}${order} LIMIT ? OFFSET ?)${order}`
          : `SELECT id, json(doc) AS doc, dates FROM ${this.t} WHERE ${where}${order} LIMIT ? OFFSET ?`;
      const rows = this.engine.statement(sql).all(...params, limit, skip) as Row[];
      if (backwards) rows.reverse();
      return rows.map((row) => toDoc<T>(row));
    }, []);
  }

  /** After a unique field nothing can tie, so the sort stops there and its unique index alone gives the order. */
  private effectiveSort(sort: SortSpec | undefined): SortSpec | undefined {
    const [first] = Object.keys(sort ?? {});
    if (!sort || !first || first === '_id') return sort;
    const unique = this.engine.indexesOf(this.name).some((index) => index.field === first && index.unique);
    return unique ? { [first]: sort[first]! } : sort;
  }

  async *findInBatches(filter: Filter, options: BatchOptions = {}): AsyncGenerator<T[]> {
    if (!this.engine.has(this.name)) return;
    const { where, params } = filterSql(filter, this.engine.context(this.name));
    const size = options.batchSize ?? 250;
    // Its own read-only connection: it reads one consistent snapshot while writes go on, and
    // the turns between batches leave the event loop to other requests.
    const reader = this.engine.run(() => connect(this.engine.file, { readonly: true }, PASS_CACHE_KIB));
    try {
      const rows = reader
        .prepare(
          `SELECT id, json(doc) AS doc, dates FROM ${this.t} WHERE ${where}${orderSql(this.effectiveSort(options.sort))}`,
        )
        .iterate(...params) as IterableIterator<Row>;
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

  async count(filter: Filter = {}): Promise<number> {
    return this.read(() => this.countOf(filter), 0);
  }

  private countOf(filter: Filter): number {
    const kept = this.engine.keptCount(this.name, filter);
    if (kept !== null) return kept;
    const key = JSON.stringify(filter);
    const known = this.engine.rememberedCount(this.name, key);
    if (known !== undefined) return known;
    const { where, params } = filterSql(filter, this.engine.context(this.name));
    const { n } = this.engine
      .statement(`SELECT count(*) AS n FROM ${this.t} WHERE ${where}`)
      .get(...params) as {
      n: number;
    };
    this.engine.rememberCount(this.name, key, n);
    return n;
  }

  updateById(id: string, changes: DocChanges<T>): Promise<T | null> {
    return this.updateOne({ _id: id }, changes);
  }

  async updateOne(filter: Filter, changes: DocChanges<T>): Promise<T | null> {
    const { set, unset } = splitChanges(changes as Record<string, unknown>);
    // IMMEDIATE: the write lock is taken before the read, so that a compare-and-set from another
    // process (workers share the file) waits its turn instead of failing on a stale snapshot.
    return this.write(() =>
      this.engine.db
        .transaction(() => {
          const { where, params } = filterSql(filter, this.engine.context(this.name));
          const row = this.engine
            .statement(`SELECT seq, id, json(doc) AS doc, dates FROM ${this.t} WHERE ${where} LIMIT 1`)
            .get(...params) as (Row & { seq: number }) | undefined;
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
        })
        .immediate(),
    );
  }

  async deleteById(id: string): Promise<boolean> {
    return this.write(
      () => this.engine.statement(`DELETE FROM ${this.t} WHERE id = ?`).run(id).changes === 1,
    );
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    await this.write(() => this.engine.ensureIndex(this.name, index));
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
    return this.gate.run(async () =>
      this.engine.run(() => {
        this.engine.ensureCollection(this.name);
        this.engine.changed(this.name);
        return work();
      }),
    );
  }
}

const reversed = (sort: SortSpec): SortSpec =>
  Object.fromEntries(
    Object.entries(sort).map(([field, direction]) => [field, direction === 1 ? -1 : 1]),
  ) as SortSpec;

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
