/**
 * The data files of the store this project used before SQLite (nedb): one file per collection,
 * one JSON document per line, appended to. A later line for the same `_id` replaces the earlier
 * one, `{"$$deleted":true,"_id":…}` removes it, `{"$$indexCreated":{fieldName,unique}}` and
 * `{"$$indexRemoved":fieldName}` record indexes, and dates are written as `{"$$date":<ms>}`.
 */
export interface NedbCollection {
  docs: Map<string, Record<string, unknown>>;
  indexes: Map<string, { unique: boolean }>;
  /** The last line was cut short (the old store was stopped while appending it): that write was never acknowledged. */
  tornLastLine: boolean;
}

export class NedbFileError extends Error {}

export function readNedbFile(text: string, file: string): NedbCollection {
  const docs = new Map<string, Record<string, unknown>>();
  const indexes = new Map<string, { unique: boolean }>();
  const lines = text.split('\n');
  // A file that ends with a newline gives one empty last item.
  const lastIndex = text.endsWith('\n') ? lines.length - 2 : lines.length - 1;
  let tornLastLine = false;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line, revive) as Record<string, unknown>;
    } catch {
      if (i === lastIndex) {
        tornLastLine = true;
        return;
      }
      throw new NedbFileError(
        `${file}, line ${i + 1}, is damaged (not a JSON document); nothing was imported.`,
      );
    }
    if (entry.$$deleted === true && typeof entry._id === 'string') docs.delete(entry._id);
    else if (entry.$$indexCreated) {
      const index = entry.$$indexCreated as { fieldName: string; unique?: boolean };
      indexes.set(index.fieldName, { unique: index.unique === true });
    } else if (typeof entry.$$indexRemoved === 'string') indexes.delete(entry.$$indexRemoved);
    else if (typeof entry._id === 'string') docs.set(entry._id, entry);
    else
      throw new NedbFileError(
        `${file}, line ${i + 1}, holds a document without an _id; nothing was imported.`,
      );
  });
  return { docs, indexes, tornLastLine };
}

function revive(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$$date') return new Date((value as { $$date: number }).$$date);
  }
  return value;
}
