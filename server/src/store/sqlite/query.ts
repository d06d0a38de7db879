import type { Filter, SortSpec } from '../store';
import { sqlValue } from './documents';

/**
 * The store's filters and sorts as SQL over a collection's table (`id`, `doc` JSON, `rowid`):
 * each field is read with json_extract, the very expression its index is built on, so SQLite
 * answers from the index. Nothing here matches documents itself. The console's text search, planned
 * as a whole, is in text-search.ts.
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
export const TRIGRAM = 3;

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

export function isOperatorObject(value: unknown): value is Record<string, unknown> {
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
export function contains(
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

/** The text as one FTS5 phrase: taken literally, whatever it holds. */
export const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

export function orderSql(sort: SortSpec | undefined): string {
  if (!sort || Object.keys(sort).length === 0) return '';
  const terms = Object.entries(sort).map(
    ([field, direction]) => `${fieldSql(field)} ${direction === -1 ? 'DESC' : 'ASC'}`,
  );
  return ` ORDER BY ${terms.join(', ')}`;
}
