import { setImmediate, setTimeout } from 'node:timers';
import type Database from 'better-sqlite3';

/** How often a batch asks again for the write lock another connection (worker) holds. */
const LOCK_RETRY_MS = 1;

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Committed {
  pending: Pending;
  value: unknown;
}

export interface GroupCommitOptions {
  /** How long a batch may wait for the write lock before failing as a busy database. */
  lockWaitMs: number;
  /** SQLite's refusals as the product's answers (faults.ts). */
  fault: (error: unknown) => unknown;
  /**
   * False when the database is not in WAL mode (a file system without shared memory): COMMIT
   * then stays at synchronous=FULL and nothing is synced afterwards.
   */
  syncAfterCommit: boolean;
  /** Makes everything written to the log so far durable, off the event loop (log-sync.ts). */
  syncLog: (done: (error: Error | null) => void) => void;
  /** The same, on the spot. */
  syncLogNow: () => void;
}

/**
 * Group commit: the writes this connection is asked for during one turn of the event loop are
 * made in one IMMEDIATE transaction, each in a savepoint of its own (a write that throws is
 * undone and refused alone), then committed together, and the log is made durable for all of
 * them with one fsync. A write resolves only once that fsync has returned: what is answered is on
 * stable storage, as with a lone commit at synchronous=FULL.
 *
 * Why not a commit at synchronous=FULL: SQLite then fsyncs inside COMMIT, on the event loop
 * (better-sqlite3 is synchronous), holding the write lock all the while. At 200 saves a second
 * that was 200 fsyncs a second of a blocked loop (3 to 5 ms each while the disk is shared), and
 * the other worker waited for the lock meanwhile. Here COMMIT runs at synchronous=NORMAL (SQLite
 * writes the log but does not fsync it, and still syncs the log's header when it starts it anew
 * and both files around a checkpoint), which takes microseconds; the fsync runs in libuv's thread
 * pool, and the writes committed while one is under way share the next (the figures of both
 * ways are in docs/performance.md, "Courses"). The connection is at
 * FULL whenever it is not committing a batch, so anything written outside this path (a new
 * collection's table, the NeDB import) is durable when its statement returns.
 *
 * What changes: another request may read a committed write before its fsync has returned (as
 * InnoDB and MongoDB allow too); a power cut in that millisecond loses a write nobody was told
 * was saved. A write that depends on it is logged after it, so the fsync that makes it durable
 * covers the first one too.
 *
 * The write lock may be held by another connection (another worker committing). SQLite's busy
 * handler would sleep on the event loop until it is free (traced at 200 saves a second: some 1,100
 * sleeps of 1 to 20 ms in 15 s); instead the batch asks for it without waiting, and again
 * a millisecond later, taking in the writes that arrive meanwhile. After `lockWaitMs` it fails as
 * a busy database.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  /** When the batch first found the write lock taken, or null. */
  private waitingSince: number | null = null;
  /** Committed, waiting for the next fsync of the log. */
  private unsynced: Committed[] = [];
  /** The group whose fsync is under way. */
  private syncing: Committed[] | null = null;
  private readonly statements: Record<
    'begin' | 'commit' | 'rollback' | 'noWait' | 'wait' | 'relaxed' | 'full',
    Database.Statement
  >;
  /** Runs its argument in a savepoint of the batch's transaction (better-sqlite3 nests that way). */
  private readonly savepointed: (work: () => unknown) => unknown;
  /** Transactions committed, for tests and the curious. */
  commits = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly options: GroupCommitOptions,
  ) {
    this.statements = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      noWait: db.prepare('PRAGMA busy_timeout = 0'),
      wait: db.prepare(`PRAGMA busy_timeout = ${options.lockWaitMs}`),
      relaxed: db.prepare(`PRAGMA synchronous = ${options.syncAfterCommit ? 'NORMAL' : 'FULL'}`),
      full: db.prepare('PRAGMA synchronous = FULL'),
    };
    this.savepointed = db.transaction((work: () => unknown) => work());
  }

  /** Runs `work` in the next batch; resolves with its result once the batch is durable. */
  run<R>(work: () => R): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule(() => setImmediate(() => this.flush(false)));
    });
  }

  /**
   * Commits what is queued, waiting for the lock if need be, and syncs the log on the spot (the
   * store is closing): every write asked for is then settled.
   */
  drain(): void {
    while (this.queue.length > 0) this.flush(true);
    // The fsync under way may have begun before the last commits: one more covers them all.
    const waiting = [...(this.syncing ?? []), ...this.unsynced.splice(0)];
    if (waiting.length === 0) return;
    try {
      this.options.syncLogNow();
    } catch (error) {
      for (const { pending } of waiting) pending.reject(this.options.fault(error));
      return;
    }
    for (const { pending, value } of waiting) pending.resolve(value);
  }

  private schedule(later: () => void): void {
    if (this.scheduled) return;
    this.scheduled = true;
    later();
  }

  private flush(closing: boolean): void {
    this.scheduled = false;
    if (this.queue.length === 0 || !this.lock(closing)) return;
    const batch = this.queue.splice(0);
    const done: Committed[] = [];
    try {
      for (let i = 0; i < batch.length; i++) {
        const pending = batch[i]!;
        try {
          done.push({ pending, value: this.savepointed(pending.work) });
        } catch (error) {
          if (this.db.inTransaction) {
            pending.reject(this.options.fault(error));
            continue;
          }
          // SQLite rolled the whole transaction back (a full disk, an I/O error): the writes
          // before this one are lost with it, and those after it go to the next batch.
          for (const earlier of [...done.map((d) => d.pending), pending])
            earlier.reject(this.options.fault(error));
          this.queue.unshift(...batch.slice(i + 1));
          if (this.queue.length > 0) this.schedule(() => setImmediate(() => this.flush(false)));
          return;
        }
      }
      try {
        this.statements.commit.run();
      } catch (error) {
        if (this.db.inTransaction) this.statements.rollback.run();
        for (const { pending } of done) pending.reject(this.options.fault(error));
        return;
      }
    } finally {
      this.statements.full.run();
    }
    this.commits += 1;
    if (!this.options.syncAfterCommit) {
      for (const { pending, value } of done) pending.resolve(value);
      return;
    }
    this.unsynced.push(...done);
    if (!closing) this.sync();
  }

  /** One fsync at a time; what is committed meanwhile waits for the next one. */
  private sync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const group = this.unsynced.splice(0);
    this.syncing = group;
    this.options.syncLog((error) => {
      this.syncing = null;
      for (const { pending, value } of group) {
        if (error) pending.reject(this.options.fault(error));
        else pending.resolve(value);
      }
      this.sync();
    });
  }

  /**
   * Takes the write lock (BEGIN IMMEDIATE) at synchronous=NORMAL, which can only be set outside a
   * transaction; false when the lock is held elsewhere (a retry is set) or cannot be had.
   */
  private lock(closing: boolean): boolean {
    const { begin, noWait, wait, relaxed, full } = this.statements;
    try {
      relaxed.run();
      if (closing) begin.run();
      else {
        noWait.run();
        try {
          begin.run();
        } finally {
          wait.run();
        }
      }
      this.waitingSince = null;
      return true;
    } catch (error) {
      full.run();
      const busy = (error as { code?: string }).code === 'SQLITE_BUSY';
      const now = Date.now();
      this.waitingSince ??= now;
      if (!busy || closing || now - this.waitingSince >= this.options.lockWaitMs) {
        this.waitingSince = null;
        for (const pending of this.queue.splice(0)) pending.reject(this.options.fault(error));
        return false;
      }
      this.schedule(() => setTimeout(() => this.flush(false), LOCK_RETRY_MS));
      return false;
    }
  }
}
