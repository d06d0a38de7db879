import type { Filter, FindOptions, SortSpec, StoredDoc } from '../store';
import { type DocRow, toDoc } from './documents';
import type { SqliteEngine } from './engine';
import { filterSql, ident, orderSql, type QueryContext, type SqlFilter } from './query';
import { isTextSearch, scanRowidsSql, searchPlan, searchRowidsSql } from './text-search';

/** Pages further than this are found by walking the sort index alone, then reading just the page's rows. */
const FAR_SKIP = 200;
/**
 * Above this many matches, a sorted page of a text search too short for the trigram index walks
 * the sort index; the list's own count (to 1,000 and one) has found out already.
 */
const COMMON_MATCHES = 1000;
/** A text search's matches are counted up to this many to choose how its page is read (searchPlan). */
const PLAN_COUNT = 5000;

/**
 * How a collection's pages and counts are read: a far page of a paged order from its anchors, a
 * text search's page by the plan its count chooses, a page past the middle from the other end,
 * and counts from the kept counts, the remembered ones, or counted at most to the limit asked.
 * Runs inside the collection's reads (the collection exists, other workers' commits followed).
 */
export class ReadPlan<T extends StoredDoc> {
  private readonly t: string;

  constructor(
    private readonly engine: SqliteEngine,
    private readonly name: string,
  ) {
    this.t = ident(name);
  }

  find(filter: Filter, options: FindOptions): T[] {
    const sort = this.sortOf(options.sort);
    const far = this.farPage(filter, sort, options);
    if (far) return far;
    const context = this.engine.catalog.context(this.name);
    let filtered = filterSql(filter, context);
    if (sort && options.limit && isTextSearch(filter))
      filtered = this.searchFilter(filter, context, (options.skip ?? 0) + options.limit) ?? filtered;
    const { where, params } = filtered;
    let limit = options.limit ?? -1;
    let skip = options.skip ?? 0;
    let backwards = false;
    if (sort && skip > FAR_SKIP && limit > 0) {
      // A page past the middle is reached from the other end: the index walk is never longer than
      // half the list. Counting stops where the answer can no longer be "past the middle".
      const total = this.count(filter, 2 * skip + limit + 1);
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
    const rows = this.engine.statement(sql).all(...params, limit, skip) as DocRow[];
    if (backwards) rows.reverse();
    return rows.map((row) => toDoc<T>(row));
  }

  /**
   * How a sorted page of a text search reads its matches, reaching `reach` (skip + limit) into
   * them; null where the filter as it stands is the best way.
   */
  private searchFilter(filter: Filter, context: QueryContext, reach: number): SqlFilter | null {
    // The text's frequency, counted at a bounded cost, decides how the page is read.
    const rowids = searchRowidsSql(filter, context);
    if (rowids) {
      const matches = this.count(filter, PLAN_COUNT + 1);
      const plan = searchPlan(matches, matches > PLAN_COUNT, reach, this.count({}));
      if (plan === 'walk-rows') return filterSql(filter, { ...context, rowByRow: true });
      // The unary + keeps SQLite from reading the matches first: the sort index drives.
      if (plan === 'walk-set') return { ...rowids, where: `+seq IN (${rowids.where})` };
      return null;
    }
    if (this.count(filter, COMMON_MATCHES + 1) > COMMON_MATCHES) return null;
    // Rare text too short for the trigram index: one pass over each field's index finds the
    // few matches, then they are sorted; walking the sort index would read every document.
    const found = this.engine.rememberedRowids(this.name, JSON.stringify(filter));
    if (found) return { where: 'seq IN (SELECT value FROM json_each(?))', params: [JSON.stringify(found)] };
    const scans = scanRowidsSql(filter, context, this.name);
    if (!scans) return null;
    return {
      where: `seq IN (${scans.map((scan) => scan.where).join(' UNION ')})`,
      params: scans.flatMap((scan) => scan.params),
    };
  }

  /**
   * A far page of the whole list in a paged order (the field, then the id, the same way): found
   * from the nearest anchor, the anchors and the page read in one transaction. Null otherwise.
   */
  private farPage(filter: Filter, sort: SortSpec | undefined, options: FindOptions): T[] | null {
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 0;
    if (!sort || skip <= FAR_SKIP || limit <= 0 || Object.keys(filter).length > 0) return null;
    const [first, second, ...more] = Object.entries(sort);
    if (!first || more.length > 0) return null;
    const [field, direction] = first;
    if (second && (second[0] !== '_id' || second[1] !== direction)) return null;
    const index = this.engine.catalog.sortIndex(this.name, field);
    if (!index) return null;
    return this.engine.db.transaction(() => {
      const total = this.engine.catalog.keptCount(this.name, {}) ?? 0;
      if (skip >= total) return [];
      const count = Math.min(limit, total - skip);
      // A descending page is the ascending one at the mirrored position, read backwards.
      const entries = this.engine.anchors.entries(
        index,
        direction === 1 ? skip : total - skip - count,
        count,
      );
      if (direction === -1) entries.reverse();
      const rows = this.engine
        .statement(
          `SELECT seq, id, json(doc) AS doc, dates FROM ${this.t} WHERE seq IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(entries.map(([seq]) => seq))) as Array<DocRow & { seq: number }>;
      const bySeq = new Map(rows.map((row) => [row.seq, row]));
      return entries.map(([seq]) => toDoc<T>(bySeq.get(seq)!));
    })();
  }

  /** After a unique field nothing can tie, so the sort stops there and its unique index alone gives the order. */
  sortOf(sort: SortSpec | undefined): SortSpec | undefined {
    const [first] = Object.keys(sort ?? {});
    if (!sort || !first || first === '_id') return sort;
    const unique = this.engine.indexesOf(this.name).some((index) => index.field === first && index.unique);
    return unique ? { [first]: sort[first]! } : sort;
  }

  /** The number of matching documents, or `limit` when there are at least that many (-1: no limit). */
  count(filter: Filter, limit = -1): number {
    const most = (n: number) => (limit < 0 ? n : Math.min(n, limit));
    const kept = this.engine.catalog.keptCount(this.name, filter);
    if (kept !== null) return most(kept);
    const key = JSON.stringify(filter);
    const known = this.engine.rememberedCount(this.name, key);
    if (known !== undefined) return most(known);
    // A count that stopped at a limit earlier still answers any smaller limit.
    const atLeast = this.engine.rememberedCount(this.name, `>=${key}`);
    if (atLeast !== undefined && limit >= 0 && atLeast >= limit) return limit;
    const context = this.engine.catalog.context(this.name);
    const rowids = searchRowidsSql(filter, context);
    const scans = rowids ? null : scanRowidsSql(filter, context, this.name);
    const { where, params } = rowids ?? filterSql(filter, context);
    const n = scans
      ? this.countScans(scans, limit, key)
      : (this.engine
          .statement(
            rowids
              ? `SELECT count(*) FROM (${where} LIMIT ?)`
              : `SELECT count(*) FROM (SELECT 1 FROM ${this.t} WHERE ${where} LIMIT ?)`,
          )
          .pluck()
          .get(...params, limit) as number);
    // Only a count that stopped short of the limit is the whole count.
    this.engine.rememberCount(this.name, limit < 0 || n < limit ? key : `>=${key}`, n);
    return n;
  }

  /**
   * The matches of short text from scans of each field's index: each scan stops at the limit (common
   * text stops early), and only when none reaches it are the matches of all fields put together.
   */
  private countScans(scans: SqlFilter[], limit: number, key: string): number {
    if (limit < 0)
      return this.engine
        .statement(`SELECT count(*) FROM (${scans.map((scan) => scan.where).join(' UNION ')})`)
        .pluck()
        .get(...scans.flatMap((scan) => scan.params)) as number;
    const found = new Set<number>();
    for (const scan of scans) {
      const rowids = this.engine
        .statement(`${scan.where} LIMIT ?`)
        .pluck()
        .all(...scan.params, limit) as number[];
      if (rowids.length >= limit) return limit;
      for (const rowid of rowids) found.add(rowid);
    }
    // Few enough to keep: the page then reads them without scanning again.
    if (found.size < limit) this.engine.rememberRowids(this.name, key, [...found]);
    return Math.min(found.size, limit);
  }
}

const reversed = (sort: SortSpec): SortSpec =>
  Object.fromEntries(
    Object.entries(sort).map(([field, direction]) => [field, direction === 1 ? -1 : 1]),
  ) as SortSpec;
