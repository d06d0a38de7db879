import Database from 'better-sqlite3';
import { Anchors } from './anchors';
import { Catalog, type IndexRecord } from './catalog';
import { storeFault } from './faults';
import { GroupCommit } from './group-commit';
import { LogSync } from './log-sync';

/** Page cache of the server's connection: the hot index pages of a million members, within the memory budget. */
const CACHE_KIB = 16_384;
/** How long a statement waits for another connection's write lock before giving up. */
const BUSY_TIMEOUT_MS = 5000;

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

/** The database connection, the catalog of collections and indexes it holds, and the counts it remembers. */
export class SqliteEngine {
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * Counts of recent filters by collection (and the rowids of a few matches found by scanning),
   * dropped at the collection's next write: a list's count and its page share one.
   */
  private readonly counts = new Map<string, Map<string, number | number[]>>();
  private open = true;
  /** SQLite's count of commits by other connections (other workers) when this one last looked. */
  private dataVersion: number;
  private readonly dataVersionQuery: Database.Statement;
  readonly anchors: Anchors;
  /** Read it through `has`, `indexesOf` and `collectionNames`: they first look for other workers' commits. */
  readonly catalog: Catalog;
  /** Every write of the connection goes through it (see group-commit.ts). */
  private readonly writes: GroupCommit;
  private readonly log: LogSync;

  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly dir: string,
    anchorSpacing: number,
  ) {
    this.dataVersionQuery = db.prepare('PRAGMA data_version').pluck();
    this.dataVersion = this.dataVersionQuery.get() as number;
    this.anchors = new Anchors(db, (sql) => this.statement(sql), anchorSpacing);
    this.catalog = new Catalog(db, this.anchors, (sql) => this.statement(sql));
    this.log = new LogSync(`${file}-wal`);
    this.writes = new GroupCommit(db, {
      lockWaitMs: BUSY_TIMEOUT_MS,
      fault: (error) => storeFault(error, dir),
      syncAfterCommit: db.pragma('journal_mode', { simple: true }) === 'wal',
      syncLog: (done) => this.log.sync(done),
      syncLogNow: () => this.log.syncNow(),
    });
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
    this.catalog.load();
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

  /**
   * Runs `work` in the transaction of the next group commit; resolves once that is committed.
   * `work` runs in a savepoint: what it throws undoes its own changes only.
   */
  write<R>(work: () => R): Promise<R> {
    if (!this.open) return Promise.reject(new Error('The store is closed'));
    return this.writes.run(work);
  }

  /** Transactions this connection committed through `write`. */
  get commits(): number {
    return this.writes.commits;
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
    return this.catalog.names();
  }

  /** Asked before every read, so it is where other workers' commits are noticed. */
  has(name: string): boolean {
    this.followOthers();
    return this.catalog.has(name);
  }

  indexesOf(name: string): IndexRecord[] {
    this.followOthers();
    return this.catalog.indexesOf(name);
  }

  /** Settles the anchors a write moved out of bounds; runs inside the write's transaction. */
  rebalance(): void {
    this.anchors.rebalance((name, field) => this.catalog.sortIndex(name, field));
  }

  rememberedCount(name: string, key: string): number | undefined {
    this.followOthers();
    const known = this.counts.get(name)?.get(key);
    return typeof known === 'number' ? known : undefined;
  }

  rememberedRowids(name: string, key: string): number[] | undefined {
    this.followOthers();
    const known = this.counts.get(name)?.get(`rowids ${key}`);
    return Array.isArray(known) ? known : undefined;
  }

  rememberRowids(name: string, key: string, rowids: number[]): void {
    this.rememberCount(name, `rowids ${key}`, rowids);
  }

  rememberCount(name: string, key: string, count: number | number[]): void {
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
    this.writes.drain();
    this.log.close();
    this.open = false;
    this.statements.clear();
    // Closing checkpoints the write-ahead log into the database file and removes it.
    this.db.close();
  }
}
