/** Strings that JSON writes as they are: printable ASCII without quote or backslash. */
const PLAIN = /^[ !#-[\]-~]*$/;

/**
 * The length in bytes of `value` as the embedded store writes it to its file (nedb's
 * `model.serialize`: JSON, dates as {"$$date":ms}, undefined fields left out), without building
 * the string: for 100,000 users that is ~0.1 s instead of ~1.7 s.
 */
export function storedJsonSize(value: unknown): number {
  if (typeof value === 'string') {
    return PLAIN.test(value) ? value.length + 2 : Buffer.byteLength(JSON.stringify(value));
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null || value === undefined) return 4;
  if (value instanceof Date) return '{"$$date":}'.length + String(value.getTime()).length;
  if (Array.isArray(value)) {
    let size = 2 + Math.max(0, value.length - 1);
    // In an array JSON writes undefined (and functions) as null.
    for (const item of value) size += typeof item === 'function' ? 4 : storedJsonSize(item);
    return size;
  }
  if (typeof value === 'object') {
    let size = 2;
    let first = true;
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (field === undefined || typeof field === 'function') continue;
      size += (first ? 0 : 1) + storedJsonSize(key) + 1 + storedJsonSize(field);
      first = false;
    }
    return size;
  }
  return 0;
}
