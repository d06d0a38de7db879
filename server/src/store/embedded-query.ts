import { createRequire } from 'node:module';
import type { Filter, SortSpec } from './store';

/**
 * Fast paths for the embedded store's `find` with a sort and its `count`, over an in-memory
 * snapshot of the collection. nedb itself walks its _id tree for every query, re-splits each
 * sort key on every comparison and sorts all matches even when only a page is wanted; with
 * 100,000 users that is most of a second. The answers here are the same as nedb's: filters that
 * this file does not understand, and documents whose values are arrays or objects, are matched by
 * nedb's own `model.match`.
 */

interface NedbModel {
  match(doc: unknown, query: unknown): boolean;
  areThingsEqual(a: unknown, b: unknown): boolean;
  compareThings(a: unknown, b: unknown, compareStrings?: (a: string, b: string) => number): number;
  getDotValue(doc: unknown, field: string): unknown;
  deepCopy<T>(doc: T): T;
}

// The package has no "exports" map and no types for its model module, hence require.
export const nedbModel = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as NedbModel;

type Doc = Record<string, unknown>;
/** `index` is the document's position in the array that `columns` are aligned with. */
export type Predicate = (doc: Doc, index: number) => boolean;
type ValueTest = (value: unknown) => boolean;

/**
 * Case-folded copies of one field of every document, in the documents' order (see
 * `foldedValue`). Scanning a compact array of short strings is several times faster than
 * visiting each document and running a regular expression on it.
 */
export interface FoldedColumns {
  folded(field: string): ReadonlyArray<string | null | undefined>;
}

/** A predicate equal to `model.match(doc, filter)`, usually many times faster. */
export function compileFilter(filter: Filter, columns?: FoldedColumns): Predicate {
  return tryCompile(filter, columns) ?? ((doc) => nedbModel.match(doc, filter));
}

function tryCompile(filter: Filter, columns?: FoldedColumns): Predicate | null {
  const parts: Predicate[] = [];
  for (const key of Object.keys(filter)) {
    const query = filter[key];
    if (key === '$or' || key === '$and') {
      if (!Array.isArray(query)) return null;
      const subs = query.map((sub) => (isPlainObject(sub) ? tryCompile(sub, columns) : null));
      if (subs.some((sub) => sub === null)) return null;
      parts.push(key === '$or' ? anyOf(subs as Predicate[]) : allOf(subs as Predicate[]));
      continue;
    }
    if (key.startsWith('$') || key.includes('.')) return null;
    const single = { [key]: query };
    const needle = columns ? plainTextNeedle(query) : null;
    if (columns && needle !== null) {
      const column = columns.folded(key);
      parts.push((doc, index) => {
        const folded = column[index];
        if (folded === undefined) return nedbModel.match(doc, single);
        return folded?.includes(needle) ?? false;
      });
      continue;
    }
    const test = compileValueTest(query);
    if (!test) return null;
    // Arrays and sub-documents have nedb's own rules (any element matches, deep equality).
    parts.push((doc) => {
      const value = doc[key];
      if (typeof value !== 'object' || value === null || value instanceof Date) return test(value);
      return nedbModel.match(doc, single);
    });
  }
  return allOf(parts);
}

// Combinators unrolled for the usual one or two parts: a closure per part costs more than the test.
// They serve document predicates (doc, index) and value tests (value) alike.
// biome-ignore lint/suspicious/noExplicitAny: any arity of boolean test
type Test = (...args: any[]) => boolean;

function allOf<T extends Test>(tests: T[]): T {
  const [first, second] = tests;
  if (tests.length === 1) return first!;
  const all =
    tests.length === 0
      ? () => true
      : tests.length === 2
        ? (a: unknown, b: unknown) => first!(a, b) && second!(a, b)
        : (a: unknown, b: unknown) => tests.every((test) => test(a, b));
  return all as T;
}

function anyOf<T extends Test>(tests: T[]): T {
  const [first, second] = tests;
  if (tests.length === 1) return first!;
  const any =
    tests.length === 0
      ? () => false
      : tests.length === 2
        ? (a: unknown, b: unknown) => first!(a, b) || second!(a, b)
        : (a: unknown, b: unknown) => tests.some((test) => test(a, b));
  return any as T;
}

/** Tests for a value that is a string, number, boolean, null, undefined or Date (nedb's semantics). */
function compileValueTest(query: unknown): ValueTest | null {
  if (query instanceof RegExp) return regexTest(query);
  if (query === null || ['string', 'number', 'boolean'].includes(typeof query))
    return (value) => value === query;
  if (query instanceof Date) {
    const time = query.getTime();
    return (value) => value instanceof Date && value.getTime() === time;
  }
  if (!isPlainObject(query)) return null;
  const operators = Object.keys(query);
  if (operators.length === 0 || !operators.every((op) => op.startsWith('$'))) return null;
  const tests = operators.map((op) => compileOperator(op, query[op]));
  if (tests.some((test) => test === null)) return null;
  return allOf(tests as ValueTest[]);
}

function compileOperator(op: string, operand: unknown): ValueTest | null {
  const { areThingsEqual } = nedbModel;
  switch (op) {
    case '$lt':
      return (value) => comparable(value, operand) && (value as number) < (operand as number);
    case '$lte':
      return (value) => comparable(value, operand) && (value as number) <= (operand as number);
    case '$gt':
      return (value) => comparable(value, operand) && (value as number) > (operand as number);
    case '$gte':
      return (value) => comparable(value, operand) && (value as number) >= (operand as number);
    case '$ne':
      return (value) => value === undefined || !areThingsEqual(value, operand);
    case '$in':
      return Array.isArray(operand) ? (value) => operand.some((item) => areThingsEqual(value, item)) : null;
    case '$nin':
      return Array.isArray(operand) ? (value) => !operand.some((item) => areThingsEqual(value, item)) : null;
    case '$regex':
      return operand instanceof RegExp ? regexTest(operand) : null;
    case '$exists': {
      const wanted = Boolean(operand) || operand === '';
      return (value) => (value === undefined ? !wanted : wanted);
    }
    default:
      return null;
  }
}

/**
 * The case-folded text that a case-insensitive plain-text pattern (flags exactly `i`, only literal
 * characters, as the user search makes) looks for, given as a RegExp or `{ $regex }`; else null.
 * Searching folded text for it gives exactly the expression's answer (see `caseFold`).
 */
function plainTextNeedle(query: unknown): string | null {
  const re =
    query instanceof RegExp
      ? query
      : isPlainObject(query) && Object.keys(query).length === 1
        ? query.$regex
        : null;
  if (!(re instanceof RegExp) || re.flags !== 'i') return null;
  const literal = literalText(re.source);
  return literal === null ? null : caseFold(literal);
}

/**
 * A field value as a folded column holds it: folded text for a string, null for a value no
 * pattern can match (number, date, null, absent), undefined for arrays and sub-documents, which
 * nedb's own rules then decide.
 */
export function foldedValue(value: unknown): string | null | undefined {
  if (typeof value === 'string') return caseFold(value);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return undefined;
  return null;
}

function regexTest(re: RegExp): ValueTest {
  return (value) => typeof value === 'string' && re.test(value);
}

const SYNTAX = new Set('^$\\.*+?()[]{}|');
// Escapes that stand for the character itself (an identity escape) in a non-unicode expression.
const ESCAPED_LITERALS = new Set('^$\\.*+?()[]{}|/-');

/** The text a pattern matches when it is a plain literal, else null. */
export function literalText(source: string): string | null {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined || !ESCAPED_LITERALS.has(next)) return null;
      text += next;
      i++;
    } else if (SYNTAX.has(char)) return null;
    else text += char;
  }
  return text;
}

/**
 * Each UTF-16 unit as a non-unicode case-insensitive expression compares it (ECMAScript's
 * Canonicalize): upper-cased when that gives one unit, except that nothing outside ASCII
 * becomes ASCII. Equal folds are exactly the units such an expression treats as equal.
 */
export function caseFold(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is meant
  if (/^[\x00-\x7f]*$/.test(text)) return text.toUpperCase();
  let folded = '';
  for (const unit of text.split('')) {
    const upper = unit.toUpperCase();
    folded += upper.length === 1 && !(unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : unit;
  }
  return folded;
}

/** nedb's `areComparable`, copied as it is (quirks included) so that answers stay identical. */
function comparable(a: unknown, b: unknown): boolean {
  const orderable = (x: unknown) => typeof x === 'string' || typeof x === 'number' || x instanceof Date;
  if (!orderable(a) && !orderable(b)) return false;
  return typeof a === typeof b;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp)
  );
}

export type Comparator = (a: Doc, b: Doc) => number;

/** nedb's sort order for a sort spec, reading plain field names directly. */
export function compileSort(sort: SortSpec, compareStrings?: (a: string, b: string) => number): Comparator {
  const criteria = Object.entries(sort).map(([key, direction]) => ({
    direction,
    get: key.includes('.') ? (doc: Doc) => nedbModel.getDotValue(doc, key) : (doc: Doc) => doc[key],
  }));
  return (a, b) => {
    for (const { direction, get } of criteria) {
      const order = direction * compareValues(get(a), get(b), compareStrings);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** nedb's `compareThings`, with its common cases (two strings, dates or numbers) answered first. */
function compareValues(a: unknown, b: unknown, compareStrings?: (a: string, b: string) => number): number {
  if (typeof a === 'string' && typeof b === 'string') {
    if (compareStrings) return compareStrings(a, b);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (a instanceof Date && b instanceof Date) {
    const x = a.getTime();
    const y = b.getTime();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return nedbModel.compareThings(a, b, compareStrings);
}

/** Above this many wanted items a full sort beats keeping a sorted top list. */
const MAX_TOP_LIST = 256;

/**
 * The first `count` items in `compare` order, as a stable sort would give them, without sorting
 * everything: one comparison rejects most items once the list is full.
 */
export function firstInOrder<T>(items: readonly T[], compare: (a: T, b: T) => number, count: number): T[] {
  if (count <= 0) return [];
  if (count > MAX_TOP_LIST || count * 4 >= items.length) return [...items].sort(compare).slice(0, count);
  // An input already ordered the other way (snapshots start in _id order, and `_id` breaks ties)
  // would put every item into the list; walked from its end, almost every item is rejected.
  const backwards = compare(items[items.length - 1]!, items[0]!) < 0;
  const top: T[] = [];
  for (let n = 0; n < items.length; n++) {
    const item = items[backwards ? items.length - 1 - n : n]!;
    // Ties keep input order, as in a stable sort: walking forwards an equal item goes after the
    // ones already listed, walking backwards before them.
    if (top.length === count) {
      const order = compare(item, top[count - 1]!);
      if (order > 0 || (order === 0 && !backwards)) continue;
    }
    let low = 0;
    let high = top.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const order = compare(item, top[mid]!);
      if (order < 0 || (order === 0 && backwards)) high = mid;
      else low = mid + 1;
    }
    // Shifted by hand: splice would allocate an array per call.
    for (let j = Math.min(top.length, count - 1); j > low; j--) top[j] = top[j - 1]!;
    top[low] = item;
  }
  return top;
}

/**
 * A text key that is equal for equal filters, or null when the filter holds something that
 * cannot be keyed safely (functions, or regular expressions whose `g`/`y` flag makes them stateful).
 */
export function filterKey(value: unknown): string | null {
  if (value === null) return 'z';
  if (value === undefined) return 'u';
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${(typeof value)[0]}${String(value)}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value instanceof RegExp)
    return /[gy]/.test(value.flags) ? null : `r${JSON.stringify([value.source, value.flags])}`;
  if (Array.isArray(value)) {
    const items = value.map(filterKey);
    return items.includes(null) ? null : `a[${items.join(',')}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.keys(value).map((key) => {
      const inner = filterKey(value[key]);
      return inner === null ? null : `${JSON.stringify(key)}:${inner}`;
    });
    return entries.includes(null) ? null : `o{${entries.join(',')}}`;
  }
  return null;
}
