import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { StartupError } from '../../lib/startup-error';
import { encodeDoc } from '../sqlite/documents';
import type { SqliteEngine } from '../sqlite/engine';
import { ident } from '../sqlite/query';
import { type NedbCollection, NedbFileError, readNedbFile } from './reader';

const IMPORTED = 'nedb-imported-at';

/**
 * The first start after the move to SQLite: the old store's files in DATA_DIR/db (`<name>.db`)
 * are imported into the database in one transaction (every collection, ids, timestamps, all
 * fields, indexes), counts checked, then the files are moved to a dated folder beside them and
 * one line says so. A failure imports nothing and leaves the old files where they were.
 */
export async function importNedbFiles(
  dir: string,
  engine: SqliteEngine,
  notice: (message: string) => void,
): Promise<void> {
  const files = (await readdir(dir))
    .filter((file) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.db~?$/.test(file))
    .sort();
  if (files.length === 0) return;
  const current = files.filter((file) => file.endsWith('.db'));
  const importedAt = engine.getMeta(IMPORTED);
  let summary = '';
  if (!importedAt) {
    const collections: Array<NedbCollection & { name: string; file: string }> = [];
    for (const file of current) {
      const text = await readFile(path.join(dir, file), 'utf8');
      try {
        collections.push({ name: file.slice(0, -3), file, ...readNedbFile(text, path.join(dir, file)) });
      } catch (error) {
        if (error instanceof NedbFileError)
          throw new StartupError(`${error.message} Repair or move that file, then start again.`);
        throw error;
      }
    }
    engine.run(() =>
      engine.db.transaction(() => {
        for (const { name, docs, indexes } of collections) {
          engine.catalog.ensureCollection(name);
          for (const [field, { unique }] of indexes)
            if (field !== '_id') engine.catalog.ensureIndex(name, { field, unique });
          const insert = engine.db.prepare(
            `INSERT INTO ${ident(name)} (id, doc, dates) VALUES (?, jsonb(?), ?)`,
          );
          for (const { _id, ...fields } of docs.values()) {
            const encoded = encodeDoc(fields);
            insert.run(_id, encoded.doc, encoded.dates);
          }
          const count = engine.catalog.keptCount(name, {});
          if (count !== docs.size)
            throw new Error(
              `The import of ${name} does not add up: ${docs.size} documents read, ${count} stored.`,
            );
        }
        engine.setMeta(IMPORTED, new Date().toISOString());
      })(),
    );
    const documents = collections.reduce((total, c) => total + c.docs.size, 0);
    const torn = collections.filter((c) => c.tornLastLine).map((c) => c.file);
    summary =
      `Imported ${documents} documents in ${collections.length} collections from the old store's files` +
      (torn.length
        ? ` (an unfinished last line, a write never acknowledged, was left out of ${torn.join(', ')})`
        : '');
  }
  const folder = path.join(
    dir,
    `nedb-files-${(importedAt ?? new Date().toISOString()).replaceAll(':', '-').slice(0, 19)}`,
  );
  await mkdir(folder, { recursive: true });
  for (const file of files) await rename(path.join(dir, file), path.join(folder, file));
  notice(
    `${summary || "The old store's files were imported earlier"} into ${engine.file}; the old files were moved to ${folder}.`,
  );
}
