import type Database from 'better-sqlite3';
import { fieldSql, ident } from './query';

/**
 * Anchors: how a far page of a sorted list is found without walking the sort index from its
 * first entry (OFFSET 500,000 reads 500,000 index entries, about 40 ms).
 *
 * For each paged field, "$anchors" keeps every so many keys of the sort order, (value, id), each
 * with the number of documents from it up to the next anchor. Triggers keep those numbers exact
 * in the same transaction as every insert, delete and change of the field; after each write the
 * store splits a bucket that grew past twice the spacing and folds one that shrank under a
 * quarter of it into the previous one. A page at position P adds up the numbers of the (about a
 * thousand) anchors to find the last anchor at or before P, then walks at most two buckets of the
 * sort index from there.
 *
 * Order is (value, id), as the sort index is. Documents without the field (NULL, first in an
 * ascending order) belong to the first bucket, whose anchor is the row with a NULL value.
 */

export interface AnchorKey {
  v: unknown;
  id: string;
}

interface AnchorRow extends AnchorKey {
  rowid: number;
  collection: string;
  field: string;
  n: number;
}

/** One sort index the walk goes through. */
export interface SortIndex {
  table: string;
  field: string;
  unique: boolean;
}

/** A row of the sort index: its table row and its key. */
export type IndexEntry = [seq: number, v: unknown, id: string];

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export function createAnchorCatalog(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS "$anchors" (
      collection TEXT NOT NULL, field TEXT NOT NULL, v, id TEXT NOT NULL, n INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS "$anchors$key" ON "$anchors" (collection, field, v, id);
    CREATE TABLE IF NOT EXISTS "$anchors$due" (anchor INTEGER PRIMARY KEY);
  `);
}

/** The anchors of one paged field, laid every `spacing` keys; rebuilt from its index when called. */
export class Anchors {
  constructor(
    private readonly db: Database.Database,
    private readonly statement: (sql: string) => Database.Statement,
    readonly spacing: number,
  ) {
    // A bucket that leaves its bounds is queued here, and settled by `rebalance` before the commit.
    db.exec(`
      CREATE TRIGGER IF NOT EXISTS "$anchors$${spacing}" AFTER UPDATE OF n ON "$anchors"
        WHEN NEW.n > ${2 * spacing} OR (NEW.n < ${Math.floor(spacing / 4)} AND NEW.v IS NOT NULL) BEGIN
        INSERT OR IGNORE INTO "$anchors$due" VALUES (NEW.rowid);
      END;
    `);
  }

  /** Lays the anchors of a field over the documents already there, and the triggers that keep their numbers. */
  lay(index: SortIndex): void {
    const { table, field } = index;
    const me = literal(table);
    const f = literal(field);
    const x = (row: string) => fieldSql(field, row);
    const bucket = (row: string) => `coalesce(
        (SELECT rowid FROM "$anchors" WHERE collection = ${me} AND field = ${f}
          AND (v, id) <= (${x(row)}, ${row}.id) ORDER BY v DESC, id DESC LIMIT 1),
        (SELECT rowid FROM "$anchors" WHERE collection = ${me} AND field = ${f} AND v IS NULL))`;
    const name = (suffix: string) => ident(`${table}$${field}$${suffix}`);
    const t = ident(table);
    this.db.exec(`
      DELETE FROM "$anchors" WHERE collection = ${me} AND field = ${f};
      CREATE TRIGGER IF NOT EXISTS ${name('anchor+')} AFTER INSERT ON ${t} BEGIN
        UPDATE "$anchors" SET n = n + 1 WHERE rowid = ${bucket('NEW')};
      END;
      CREATE TRIGGER IF NOT EXISTS ${name('anchor-')} AFTER DELETE ON ${t} BEGIN
        UPDATE "$anchors" SET n = n - 1 WHERE rowid = ${bucket('OLD')};
      END;
      CREATE TRIGGER IF NOT EXISTS ${name('anchor~')} AFTER UPDATE OF doc ON ${t}
        WHEN ${x('OLD')} IS NOT ${x('NEW')} BEGIN
        UPDATE "$anchors" SET n = n - 1 WHERE rowid = ${bucket('OLD')};
        UPDATE "$anchors" SET n = n + 1 WHERE rowid = ${bucket('NEW')};
      END;
    `);
    const insert = this.db.prepare(
      'INSERT INTO "$anchors" (collection, field, v, id, n) VALUES (?, ?, ?, ?, ?)',
    );
    const value = fieldSql(field);
    const total = this.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    // Hops of `spacing` entries along the index, each inside SQLite: a million keys take about a second.
    const laid: Array<AnchorKey & { n: number }> = [{ v: null, id: '', n: total }];
    let [entry] = this.walk(index, null, this.spacing, 1);
    let hop = this.spacing;
    if (entry && entry[1] === null) {
      // More documents without the field than the spacing: they all stay in the first bucket.
      hop = this.db.prepare(`SELECT count(*) FROM ${t} WHERE ${value} IS NULL`).pluck().get() as number;
      entry = this.db
        .prepare(
          `SELECT seq, ${value}, id FROM ${t} WHERE ${value} IS NOT NULL ORDER BY ${orderOf(index)} LIMIT 1`,
        )
        .raw()
        .get() as IndexEntry | undefined;
    }
    while (entry) {
      const last = laid[laid.length - 1]!;
      laid.push({ v: entry[1], id: entry[2], n: last.n - hop });
      last.n = hop;
      [entry] = this.walk(index, { v: entry[1], id: entry[2] }, this.spacing, 1);
      hop = this.spacing;
    }
    for (const anchor of laid) insert.run(table, field, anchor.v, anchor.id, anchor.n);
  }

  /**
   * The index entries at ascending positions [position, position + count) of the field's order,
   * from the nearest anchor before `position`.
   */
  entries(index: SortIndex, position: number, count: number): IndexEntry[] {
    const anchors = this.statement(
      'SELECT v, id, n FROM "$anchors" WHERE collection = ? AND field = ? ORDER BY v, id',
    )
      .raw()
      .all(index.table, index.field) as Array<[unknown, string, number]>;
    let start = 0;
    for (const [v, id, n] of anchors) {
      if (start + n > position)
        return this.walk(index, v === null ? null : { v, id }, position - start, count);
      start += n;
    }
    return [];
  }

  /**
   * `count` index entries, skipping `offset`, from the key `from` on (from the first entry when
   * null). The sort index cannot seek to a (value, id) pair in one step, so the entries with the
   * anchor's value come first, then those with a greater value.
   */
  walk(index: SortIndex, from: AnchorKey | null, offset: number, count: number): IndexEntry[] {
    const t = ident(index.table);
    const x = fieldSql(index.field);
    const order = orderOf(index);
    if (from === null)
      return this.statement(`SELECT seq, ${x}, id FROM ${t} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .raw()
        .all(count, offset) as IndexEntry[];
    const same = this.statement(
      `SELECT seq, ${x}, id FROM ${t} WHERE ${x} = ? AND id >= ? ORDER BY id LIMIT ? OFFSET ?`,
    )
      .raw()
      .all(from.v, from.id, count, offset) as IndexEntry[];
    if (same.length === count) return same;
    const sameTotal = same.length
      ? offset + same.length
      : (this.statement(`SELECT count(*) FROM (SELECT 1 FROM ${t} WHERE ${x} = ? AND id >= ? LIMIT ?)`)
          .pluck()
          .get(from.v, from.id, offset) as number);
    const after = this.statement(
      `SELECT seq, ${x}, id FROM ${t} WHERE ${x} > ? ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
      .raw()
      .all(from.v, count - same.length, Math.max(0, offset - sameTotal)) as IndexEntry[];
    return [...same, ...after];
  }

  /** Splits the buckets that grew too big and folds the ones that shrank, until none is left out of bounds. */
  rebalance(indexOf: (collection: string, field: string) => SortIndex | null): void {
    const due = this.statement(
      'SELECT a.rowid, a.collection, a.field, a.v, a.id, a.n FROM "$anchors$due" d JOIN "$anchors" a ON a.rowid = d.anchor',
    );
    const clear = this.statement('DELETE FROM "$anchors$due" WHERE anchor = ?');
    for (let rounds = 0; rounds < 10_000; rounds++) {
      const row = due.get() as AnchorRow | undefined;
      if (!row) {
        this.statement('DELETE FROM "$anchors$due"').run();
        return;
      }
      clear.run(row.rowid);
      const index = indexOf(row.collection, row.field);
      if (!index) continue;
      if (row.n > 2 * this.spacing) this.split(index, row);
      else if (row.n < Math.floor(this.spacing / 4) && row.v !== null) this.fold(row);
    }
  }

  private split(index: SortIndex, row: AnchorRow): void {
    const [entry] = this.walk(index, row.v === null ? null : row, this.spacing, 1);
    // Only possible in the first bucket: more documents without the field than the spacing.
    if (!entry || entry[1] === null) return;
    this.statement('UPDATE "$anchors" SET n = ? WHERE rowid = ?').run(this.spacing, row.rowid);
    const rest = row.n - this.spacing;
    const added = this.statement(
      'INSERT INTO "$anchors" (collection, field, v, id, n) VALUES (?, ?, ?, ?, ?)',
    ).run(row.collection, row.field, entry[1], entry[2], rest);
    if (rest > 2 * this.spacing)
      this.statement('INSERT OR IGNORE INTO "$anchors$due" VALUES (?)').run(added.lastInsertRowid);
  }

  private fold(row: AnchorRow): void {
    const previous = this.statement(
      `SELECT rowid FROM "$anchors" WHERE collection = ? AND field = ? AND (v, id) < (?, ?)
         ORDER BY v DESC, id DESC LIMIT 1`,
    )
      .pluck()
      .get(row.collection, row.field, row.v, row.id) as number | undefined;
    const into =
      previous ??
      (this.statement('SELECT rowid FROM "$anchors" WHERE collection = ? AND field = ? AND v IS NULL')
        .pluck()
        .get(row.collection, row.field) as number);
    this.statement('DELETE FROM "$anchors" WHERE rowid = ?').run(row.rowid);
    // Fires the queue trigger when the previous bucket now holds too many.
    this.statement('UPDATE "$anchors" SET n = n + ? WHERE rowid = ?').run(row.n, into);
  }
}

/** A unique field's index holds the value alone: its order is the value's, which is also (value, id). */
export const orderOf = (index: SortIndex) =>
  index.unique ? fieldSql(index.field) : `${fieldSql(index.field)}, id`;
