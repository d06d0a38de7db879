import type { Filter, SortSpec } from '../store';
import { sqlValue } from './documents';

/**
 * The store's filters and sorts as SQL over a collection's table (`id`, `doc` JSON, `rowid`):
 * each field is read with json_extract, the very expression its index is built on, so SQLite
 * answers from the index. Nothing here matches documents itself.
 */

const FIELD = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export function checkField(field: string): string {
  if (!FIELD.test(field)) throw new Error(`The store does not take this field name: ${field}`);
  return field;
}

/** The SQL expression of a field of the row `row` ('' for the table itself, or NEW / OLD in a trigger). */
export function fieldSql(field: string, row = ''): string {
  const prefix = row ? `${row}.` : '';
  if (field === '_id') return `${prefix}id`;
  const path = checkField(field)
    .split('.')
    .map((key) => `"${key}"`)
    .join('.');
  return `json_extract(${prefix}doc, '$.${path}')`;
}

/** Quoted SQL identifier. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface SqlFilter {
  where: string;
  params: Array<string | number | null>;
}

export interface QueryContext {
  /** The FTS5 table that indexes `field` for $contains, when there is one. */
  searchTable(field: string): string | null;
  /** The SQL index that holds `field`'s value, when there is one. */
  fieldIndex?(field: string): string | null;
  /**
   * Check $contains row by row even where a search index exists: right when the text is common,
   * so that walking a sort index meets a page of matches at once instead of listing them all.
   */
  rowByRow?: boolean;
}

/** At least this many characters for the trigram index to help; shorter text is looked for row by row. */
const TRIGRAM = 3;

export function filterSql(filter: Filter, context: QueryContext): SqlFilter {
  const params: SqlFilter['params'] = [];
  const where = conjunction(filter, context, params);
  return { where, params };
}

function conjunction(filter: Filter, context: QueryContext, params: SqlFilter['params']): string {
  const parts: string[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$or' || key === '$and') {
      const branches = condition as Filter[];
      if (!Array.isArray(branches)) throw new Error(`${key} takes an array of filters`);
      if (branches.length === 0) {
        parts.push(key === '$or' ? '0' : '1');
        continue;
      }
      const joined = branches.map((branch) => `(${conjunction(branch, context, params)})`);
      parts.push(`(${joined.join(key === '$or' ? ' OR ' : ' AND ')})`);
    } else if (key.startsWith('$')) {
      throw new Error(`The store does not support ${key}`);
    } else {
      parts.push(fieldCondition(key, condition, context, params));
    }
  }
  return parts.length ? parts.join(' AND ') : '1';
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Date) &&
    !Array.isArray(value) &&
    Object.keys(value).some((key) => key.startsWith('$'))
  );
}

const COMPARISONS: Record<string, string> = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' };

function fieldCondition(
  field: string,
  condition: unknown,
  context: QueryContext,
  params: SqlFilter['params'],
): string {
  const expr = fieldSql(field);
  if (!isOperatorObject(condition)) return equals(expr, condition, params);
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(condition)) {
    if (op in COMPARISONS) {
      params.push(sqlValue(operand));
      parts.push(`${expr} ${COMPARISONS[op]} ?`);
    } else if (op === '$ne') {
      if (operand === null || operand === undefined) parts.push(`${expr} IS NOT NULL`);
      else {
        params.push(sqlValue(operand));
        parts.push(`(${expr} IS NULL OR ${expr} <> ?)`);
      }
    } else if (op === '$in' || op === '$nin') {
      const list = operand as unknown[];
      if (!Array.isArray(list)) throw new Error(`${op} takes an array`);
      const values = list.filter((v) => v !== null && v !== undefined);
      const withNull = values.length < list.length;
      const alternatives: string[] = [];
      if (values.length) {
        params.push(...values.map(sqlValue));
        alternatives.push(`${expr} IN (${values.map(() => '?').join(', ')})`);
      }
      if (withNull) alternatives.push(`${expr} IS NULL`);
      const any = alternatives.length ? `(${alternatives.join(' OR ')})` : '0';
      parts.push(op === '$in' ? any : `NOT ${any}`.replace(/^NOT 0$/, '1'));
    } else if (op === '$exists') {
      const path = field === '_id' ? null : expr.replace(/^json_extract/, 'json_type');
      parts.push(path === null ? (operand ? '1' : '0') : `${path} IS ${operand ? 'NOT ' : ''}NULL`);
    } else if (op === '$contains') {
      parts.push(contains(field, expr, String(operand), context, params));
    } else {
      throw new Error(`The store does not support ${op}`);
    }
  }
  return parts.join(' AND ');
}

function equals(expr: string, value: unknown, params: SqlFilter['params']): string {
  if (value === null || value === undefined) return `${expr} IS NULL`;
  params.push(sqlValue(value));
  return `${expr} = ?`;
}

/**
 * $contains: the text anywhere in the field, taken literally, in any letter case. From the
 * field's trigram index when it has one and the text is long enough; else row by row (LIKE folds
 * ASCII letters only, so text with other letters goes through casefold, Unicode-aware).
 */
function contains(
  field: string,
  expr: string,
  text: string,
  context: QueryContext,
  params: SqlFilter['params'],
): string {
  if (text === '') return `${expr} IS NOT NULL`;
  const table = context.rowByRow ? null : context.searchTable(field);
  if (table && [...text].length >= TRIGRAM) {
    params.push(phrase(text));
    return `rowid IN (SELECT rowid FROM ${ident(table)} WHERE value MATCH ?)`;
  }
  if (/^[\x20-\x7e]*$/.test(text)) {
    params.push(`%${text.replace(/[\\%_]/g, '\\$&')}%`);
    return `${expr} LIKE ? ESCAPE '\\'`;
  }
  params.push(text);
  return `instr(casefold(${expr}), casefold(?)) > 0`;
}

/**
 * A text search: one `$contains`, or an `$or` of them, and nothing else (the console's search
 * box). Such a filter is planned as a whole: see `searchRowidsSql` and read-plan.ts.
 */
export function isTextSearch(filter: Filter): boolean {
  return searchTerms(filter) !== null;
}

function searchTerms(filter: Filter): Array<[field: string, text: string]> | null {
  const keys = Object.keys(filter);
  if (keys.length !== 1) return null;
  const branches = keys[0] === '$or' ? filter.$or : [filter];
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const terms: Array<[string, string]> = [];
  for (const branch of branches as Filter[]) {
    const entries = Object.entries(branch);
    if (entries.length !== 1) return null;
    const [field, condition] = entries[0]!;
    if (!isOperatorObject(condition) || Object.keys(condition).length !== 1) return null;
    if (typeof condition.$contains !== 'string' || condition.$contains === '') return null;
    terms.push([field, condition.$contains]);
  }
  return terms;
}

/**
 * The rowids a text search matches, from the trigram indexes alone, when every term has one and
 * is long enough for it: counting them never reads a document (a count of 33,000 matches takes
 * 10 ms this way, 100 ms through the documents). Null otherwise.
 */
export function searchRowidsSql(filter: Filter, context: QueryContext): SqlFilter | null {
  const terms = searchTerms(filter);
  if (!terms) return null;
  const selects: string[] = [];
  const params: SqlFilter['params'] = [];
  for (const [field, text] of terms) {
    const table = context.searchTable(field);
    if (!table || [...text].length < TRIGRAM) return null;
    selects.push(`SELECT rowid FROM ${ident(table)} WHERE value MATCH ?`);
    params.push(phrase(text));
  }
  return { where: selects.join(' UNION '), params };
}

/**
 * How a sorted page of a text search with a trigram index is read, whichever costs fewer index
 * entries (a document read costs about 25 of them, putting a match in a set about 2.5; measured
 * at a million documents):
 * - 'collect': every match from the trigram index, its document read, then sorted (few matches);
 * - 'walk-set': the sort index walked from its start, each entry looked up in the set of matches
 *   made once from the trigram index; documents read for the page alone;
 * - 'walk-rows': the sort index walked, each document read and checked (text most documents have).
 * `reach` is skip + limit; `matches` is exact unless `atLeast`.
 */
export type SearchPlan = 'collect' | 'walk-set' | 'walk-rows';

export function searchPlan(matches: number, atLeast: boolean, reach: number, total: number): SearchPlan {
  const walked = (reach * total) / Math.max(1, matches);
  if (atLeast) return 'walk-rows';
  const costs: Array<[SearchPlan, number]> = [
    ['collect', 25 * matches],
    ['walk-set', 2.5 * matches + walked],
    ['walk-rows', 25 * walked],
  ];
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/**
 * For a text search too short for the trigram index: one SELECT of rowids per term, each scanning
 * its field's own index (the value is in the index, so no document is read: about eight times
 * faster than reading the table). Null when a field has no index.
 */
export function scanRowidsSql(filter: Filter, context: QueryContext, table: string): SqlFilter[] | null {
  const terms = searchTerms(filter);
  if (!terms || !context.fieldIndex) return null;
  const selects: SqlFilter[] = [];
  for (const [field, text] of terms) {
    const index = context.fieldIndex(field);
    if (!index) return null;
    const params: SqlFilter['params'] = [];
    const condition = contains(field, fieldSql(field), text, { ...context, rowByRow: true }, params);
    selects.push({
      where: `SELECT rowid FROM ${ident(table)} INDEXED BY ${ident(index)} WHERE ${condition}`,
      params,
    });
  }
  return selects;
}

/** The text as one FTS5 phrase: taken literally, whatever it holds. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

export function orderSql(sort: SortSpec | undefined): string {
  if (!sort || Object.keys(sort).length === 0) return '';
  const terms = Object.entries(sort).map(
    ([field, direction]) => `${fieldSql(field)} ${direction === -1 ? 'DESC' : 'ASC'}`,
  );
  return ` ORDER BY ${terms.join(', ')}`;
}
