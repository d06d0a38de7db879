import type { StoredDoc } from '../store';

/**
 * How a document sits in a row of the SQLite store: its fields as JSON text, with every Date
 * written as its ISO string (so that SQL compares and sorts dates as it compares strings), and
 * beside it the paths of those dates, so that reading gives back Dates and never turns a
 * member's text that happens to look like a date into one.
 */
export interface EncodedDoc {
  doc: string;
  /** JSON array of dotted paths, or null when the document holds no Date. */
  dates: string | null;
}

export function encodeDoc(doc: object): EncodedDoc {
  const dates: string[] = [];
  const plain = toPlain(doc, '', dates);
  return { doc: JSON.stringify(plain), dates: dates.length ? JSON.stringify(dates) : null };
}

/** The stored document with its id (kept in its own column) first, as the other adapters give it. */
export function decodeDoc<T extends StoredDoc>(id: string, doc: string, dates: string | null): T {
  const value = JSON.parse(doc) as Record<string, unknown>;
  if (dates) for (const at of JSON.parse(dates) as string[]) reviveDate(value, at.split('.'));
  return { _id: id, ...value } as T;
}

/** A document's row as a read selects it (`json(doc) AS doc`: the JSONB column as text). */
export interface DocRow {
  id: string;
  doc: string;
  dates: string | null;
}

export const toDoc = <T extends StoredDoc>(row: DocRow): T => decodeDoc<T>(row.id, row.doc, row.dates);

/** The SQL value a filter compares a field with: dates as their ISO text, booleans as 1 or 0 (as json_extract gives them). */
export function sqlValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  throw new Error(`The store cannot compare with a value of this kind: ${JSON.stringify(value)}`);
}

function toPlain(value: unknown, at: string, dates: string[]): unknown {
  if (value instanceof Date) {
    dates.push(at);
    return value.toISOString();
  }
  if (Array.isArray(value)) return value.map((item, i) => toPlain(item, join(at, String(i)), dates));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toPlain(item, join(at, key), dates);
    }
    return out;
  }
  return value;
}

const join = (at: string, key: string) => (at ? `${at}.${key}` : key);

function reviveDate(root: Record<string, unknown>, keys: string[]): void {
  let holder: Record<string, unknown> = root;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  holder[last] = new Date(holder[last] as string);
}
