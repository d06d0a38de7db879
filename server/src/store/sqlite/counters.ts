import path from 'node:path';
import Database from 'better-sqlite3';
import {
  addByDecision,
  type CounterStep,
  type CounterStore,
  decideSteps,
  MAX_COUNTERS,
  type StoredWindow,
  SWEEP_EVERY_MS,
} from '../counters';
import { storeFault } from './faults';

/** The embedded store's counters: their own file beside the data, DATA_DIR/db/counters.sqlite. */
export const COUNTERS_FILE = 'counters.sqlite';
const BUSY_TIMEOUT_MS = 5000;

interface Row {
  count: number;
  reset_at: number;
  lim: number;
}

/**
 * Rate-limit counters in a SQLite file of their own, shared by every process of the machine.
 * WAL with synchronous=OFF: a commit is not flushed to disk, so counting a request costs no
 * fsync (the site's data keeps synchronous=FULL in site.sqlite). A power cut may lose the last
 * counts, which only gives clients a fresh window; the file itself stays consistent. Each decision
 * is one IMMEDIATE transaction: it takes the file's write lock before reading its keys, so the
 * reads and writes of two processes never interleave.
 */
export function openSqliteCounters(dir: string): CounterStore & { close(): void } {
  const db = new Database(path.join(dir, COUNTERS_FILE));
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  // `lim`: the count from which the window's limit is enforced (REAL, so that "none" is
  // Infinity). Rows of a file made before it had the column get 0: kept until they end.
  db.transaction(() => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL, lim REAL NOT NULL DEFAULT 0) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS counters_reset_at ON counters (reset_at);
    `);
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(counters)').all();
    if (!columns.some((column) => column.name === 'lim'))
      db.exec('ALTER TABLE counters ADD COLUMN lim REAL NOT NULL DEFAULT 0');
  }).immediate();
  const select = db.prepare<[string], Row>('SELECT count, reset_at, lim FROM counters WHERE key = ?');
  const replace = db.prepare(
    'INSERT OR REPLACE INTO counters (key, count, reset_at, lim) VALUES (?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM counters WHERE key = ?');
  const removeEnded = db.prepare('DELETE FROM counters WHERE reset_at <= ?');
  const total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM counters');
  // Only windows below their limit: dropping one at it would lift a limit being enforced.
  const removeSoonest = db.prepare(
    'DELETE FROM counters WHERE key IN (SELECT key FROM counters WHERE count < lim ORDER BY reset_at LIMIT ?)',
  );

  const decide = db.transaction((steps: CounterStep[]) => {
    const now = Date.now();
    const before = new Map<string, StoredWindow>();
    for (const key of new Set(
      steps.flatMap((step) => (step.when ? [step.key, step.when.key] : [step.key])),
    )) {
      const row = select.get(key);
      if (row && row.reset_at > now)
        before.set(key, { count: row.count, resetAt: row.reset_at, limit: row.lim });
    }
    const { decision, changed } = decideSteps(steps, before, now);
    for (const [key, window] of changed) replace.run(key, window.count, window.resetAt, window.limit);
    return decision;
  });
  const sweep = db.transaction((maxKeys: number) => {
    removeEnded.run(Date.now());
    const excess = (total.get()?.n ?? 0) - maxKeys;
    if (excess > 0) removeSoonest.run(excess);
  });

  const run = <R>(work: () => R): Promise<R> => {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(storeFault(error, dir));
    }
  };
  const timer = setInterval(() => void run(() => sweep(MAX_COUNTERS)).catch(() => undefined), SWEEP_EVERY_MS);
  timer.unref();

  const counters: CounterStore & { close(): void } = {
    decide: (steps) => run(() => decide.immediate(steps)),
    add: (key, amount, max, windowMs, limit = max) =>
      addByDecision(counters, key, amount, max, windowMs, limit),
    get: (key) =>
      run(() => {
        const row = select.get(key);
        return row && row.reset_at > Date.now() ? { count: row.count, resetAt: row.reset_at } : null;
      }),
    delete: (key) => run(() => void remove.run(key)),
    sweep: (maxKeys = MAX_COUNTERS) => run(() => sweep.immediate(maxKeys)),
    close() {
      clearInterval(timer);
      db.close();
    },
  };
  return counters;
}
