import type { Filter } from '../store';
import {
  contains,
  fieldSql,
  ident,
  isOperatorObject,
  phrase,
  type QueryContext,
  type SqlFilter,
  TRIGRAM,
} from './query';

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
