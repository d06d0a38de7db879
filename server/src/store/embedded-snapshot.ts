import { type FoldedColumns, foldedValue } from './embedded-query';
import type { SortSpec, StoredDoc } from './store';

type Kind = 'string' | 'number' | 'date';
/** One field of every document as a plain array; only when all values are of one kind. */
interface KeyColumn {
  kind: Kind;
  /** Strings and numbers as they are; dates as their time in ms, which orders them the same. */
  values: Array<string | number>;
  /**
   * For strings, their first three UTF-16 units as one number that orders like the strings do
   * (see `prefixOf`): most comparisons are settled by it without reading the strings.
   */
  prefixes?: number[];
  /**
   * For a field with few distinct strings (role, tier, status), one shared string per value,
   * so that equal values compare by identity instead of by reading two copies from memory.
   */
  shared?: Map<string, string>;
}

/** Fields with at most this many distinct strings share them (see `shared`). */
const MAX_SHARED_VALUES = 1024;

/** Compares two documents by their positions in the snapshot. */
export type PositionOrder = (a: number, b: number) => number;

function kindOf(value: unknown): Kind | null {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (value instanceof Date) return 'date';
  return null;
}

const keyOf = (value: unknown): string | number =>
  value instanceof Date ? value.getTime() : (value as string);

const UNIT_BASE = 65_537;
/**
 * The first three units of `text`, each plus one (zero marks "no unit", so a shorter text sorts
 * first), in base 65,537: below 2^53, so exact. Different prefixes order as the texts do;
 * equal prefixes leave the decision to the full texts.
 */
export function prefixOf(text: string): number {
  const unit = (i: number) => (i < text.length ? text.charCodeAt(i) + 1 : 0);
  return (unit(0) * UNIT_BASE + unit(1)) * UNIT_BASE + unit(2);
}

/**
 * A collection's documents as a flat array, with side columns kept aligned with it: folded text
 * for case-insensitive search, and sort keys. Reading a compact column of numbers or short
 * strings is many times faster than visiting 100,000 documents scattered over the heap.
 * Documents in it are never changed in place: a written document replaces the old one.
 */
export class Snapshot<T extends StoredDoc> implements FoldedColumns {
  readonly positions: Map<string, number>;
  /** 0, 1, 2, … one per document: "every position" without allocating it for each query. */
  readonly all: number[];
  private readonly foldedColumns = new Map<string, Array<string | null | undefined>>();
  /** null: the field holds mixed kinds (or arrays, objects, gaps), so sorting takes the general path. */
  private readonly keyColumns = new Map<string, KeyColumn | null>();

  constructor(readonly docs: T[]) {
    this.positions = new Map(docs.map((doc, i) => [doc._id, i]));
    this.all = docs.map((_, i) => i);
  }

  folded(field: string): ReadonlyArray<string | null | undefined> {
    let column = this.foldedColumns.get(field);
    if (!column) {
      column = this.docs.map((doc) => foldedValue(valueAt(doc, field)));
      this.foldedColumns.set(field, column);
    }
    return column;
  }

  /**
   * nedb's order for `sort` as a comparison of positions, read from key columns; null when a
   * field is dotted or of mixed kinds (the caller then compares documents the general way).
   */
  orderOf(sort: SortSpec): PositionOrder | null {
    const criteria: KeyColumn[] = [];
    const directions: number[] = [];
    for (const [field, direction] of Object.entries(sort)) {
      const column = field.includes('.') ? null : this.keyColumn(field);
      if (!column) return null;
      criteria.push(column);
      directions.push(direction);
    }
    return (a, b) => {
      for (let c = 0; c < criteria.length; c++) {
        const { values, prefixes } = criteria[c]!;
        if (prefixes) {
          const p = prefixes[a]!;
          const q = prefixes[b]!;
          if (p < q) return -directions[c]!;
          if (p > q) return directions[c]!;
        }
        const x = values[a]!;
        const y = values[b]!;
        if (x === y) continue;
        if (x < y) return -directions[c]!;
        if (x > y) return directions[c]!;
      }
      return 0;
    };
  }

  put(doc: T): void {
    let at = this.positions.get(doc._id);
    if (at === undefined) {
      at = this.docs.length;
      this.positions.set(doc._id, at);
      this.all.push(at);
    }
    this.docs[at] = doc;
    for (const [field, column] of this.foldedColumns) column[at] = foldedValue(valueAt(doc, field));
    for (const [field, column] of this.keyColumns) {
      if (!column) continue;
      const value = valueAt(doc, field);
      if (kindOf(value) !== column.kind) this.keyColumns.set(field, null);
      else {
        column.values[at] = share(column, keyOf(value));
        if (column.prefixes) column.prefixes[at] = prefixOf(value as string);
      }
    }
  }

  remove(id: string): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    // Swap-remove: order in the snapshot carries no meaning, and this keeps deletes O(1).
    const last = this.docs.length - 1;
    this.positions.delete(id);
    const lists: unknown[][] = [this.docs, ...this.foldedColumns.values()];
    for (const column of this.keyColumns.values()) {
      if (column) lists.push(column.values);
      if (column?.prefixes) lists.push(column.prefixes);
    }
    for (const list of lists) {
      list[at] = list[last];
      list.pop();
    }
    this.all.pop();
    if (at < last) this.positions.set(this.docs[at]!._id, at);
  }

  private keyColumn(field: string): KeyColumn | null {
    if (this.keyColumns.has(field)) return this.keyColumns.get(field)!;
    if (this.docs.length === 0) return null;
    const kind = kindOf(valueAt(this.docs[0]!, field));
    let column: KeyColumn | null = kind ? { kind, values: new Array(this.docs.length) } : null;
    for (let i = 0; column && i < this.docs.length; i++) {
      const value = valueAt(this.docs[i]!, field);
      if (kindOf(value) === kind) column.values[i] = keyOf(value);
      else column = null;
    }
    if (column?.kind === 'string') {
      column.prefixes = (column.values as string[]).map(prefixOf);
      const distinct = new Set(column.values as string[]);
      if (distinct.size <= MAX_SHARED_VALUES) {
        column.shared = new Map([...distinct].map((value) => [value, value]));
        column.values = column.values.map((value) => share(column!, value));
      }
    }
    this.keyColumns.set(field, column);
    return column;
  }
}

function share(column: KeyColumn, value: string | number): string | number {
  if (!column.shared || typeof value !== 'string') return value;
  const known = column.shared.get(value);
  if (known !== undefined) return known;
  // A field that turns out to have many distinct values stops sharing (and growing the map).
  if (column.shared.size >= MAX_SHARED_VALUES) column.shared = undefined;
  else column.shared.set(value, value);
  return value;
}

const valueAt = (doc: StoredDoc, field: string): unknown =>
  (doc as unknown as Record<string, unknown>)[field];
