import type Database from 'better-sqlite3';
import type { Filter, IndexSpec } from '../store';
import { type Anchors, createAnchorCatalog, type SortIndex } from './anchors';
import { checkField, fieldSql, ident, type QueryContext } from './query';

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export interface IndexRecord {
  field: string;
  unique: boolean;
  counted: boolean;
  search: boolean;
  paged: boolean;
}

/**
 * The tables that describe the others: the collections with their kept counts and sizes, their
 * indexes, the kept counts of counted fields' values, a few facts about the file, and the anchors.
 */
export function createCatalog(db: Database.Database): void {
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
  const columns = db.prepare("SELECT name FROM pragma_table_info('$indexes')").pluck().all();
  if (!columns.includes('paged'))
    db.exec('ALTER TABLE "$indexes" ADD COLUMN paged INTEGER NOT NULL DEFAULT 0');
  createAnchorCatalog(db);
}

/**
 * This connection's view of the collections and indexes the database holds, and the SQL that
 * makes them: each collection a table of documents, each index an SQL index on the field's
 * json_extract expression, with the triggers that keep counts, trigram search tables and anchors.
 */
export class Catalog {
  private readonly created = new Set<string>();
  private readonly indexes = new Map<string, Map<string, IndexRecord>>();

  constructor(
    private readonly db: Database.Database,
    private readonly anchors: Anchors,
    private readonly statement: (sql: string) => Database.Statement,
  ) {
    this.load();
  }

  /** Reads what the tables say, adding what this connection did not know (another worker made it). */
  load(): void {
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
        paged: row.paged === 1,
      });
    }
  }

  names(): string[] {
    return [...this.created].sort();
  }

  has(name: string): boolean {
    return this.created.has(name);
  }

  indexesOf(name: string): IndexRecord[] {
    return [...(this.indexes.get(name)?.values() ?? [])];
  }

  context(name: string): QueryContext {
    return {
      searchTable: (field) => (this.indexes.get(name)?.get(field)?.search ? searchTable(name, field) : null),
      fieldIndex: (field) => (this.indexes.get(name)?.has(field) ? `${name}$${field}` : null),
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
      paged: Boolean(spec.paged) || Boolean(known?.paged),
    };
    if (
      known &&
      known.unique === wanted.unique &&
      known.counted === wanted.counted &&
      known.search === wanted.search &&
      known.paged === wanted.paged
    )
      return;
    // Sparse is how a new index is made, not a property kept with it; a sort order's index is whole.
    const sparse = Boolean(spec.sparse) && !known && !wanted.paged && !wanted.unique;
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
        this.db.exec(
          `CREATE INDEX IF NOT EXISTS ${ident(`${name}$${field}`)} ON ${t} (${expr}, id)${sparse ? ` WHERE ${expr} IS NOT NULL` : ''}`,
        );
      }
      if (wanted.counted && !known?.counted) {
        // A sparse field's documents without it are not counted (only a value's count is read).
        this.db.exec(`
          INSERT INTO "$tallies" SELECT ${me}, ${f}, json_quote(${expr}), count(*) FROM ${t} WHERE ${sparse ? `${expr} IS NOT NULL` : 'true'} GROUP BY 3;
          CREATE TRIGGER ${ident(`${name}$${field}$tally+`)} AFTER INSERT ON ${t}${sparse ? ` WHEN ${of('NEW')} IS NOT NULL` : ''} BEGIN
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
      if (wanted.paged && !known?.paged) this.anchors.lay({ table: name, field, unique: wanted.unique });
      this.db
        .prepare(
          'INSERT OR REPLACE INTO "$indexes" (collection, field, is_unique, counted, search, paged) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          name,
          field,
          Number(wanted.unique),
          Number(wanted.counted),
          Number(wanted.search),
          Number(wanted.paged),
        );
    })();
    this.indexMap(name).set(field, wanted);
  }

  /** The sort index a paged field's anchors walk, or null when the field is not paged. */
  sortIndex(name: string, field: string): SortIndex | null {
    const index = this.indexes.get(name)?.get(field);
    return index?.paged ? { table: name, field, unique: index.unique } : null;
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

  private indexMap(name: string): Map<string, IndexRecord> {
    let map = this.indexes.get(name);
    if (!map) {
      map = new Map();
      this.indexes.set(name, map);
    }
    return map;
  }
}

const searchTable = (collection: string, field: string) => `${collection}$search$${field}`;
