// A consistent copy of the site's SQLite database, taken while the server keeps serving.
// Usage: npm run db:backup -- --to FILE        (writes FILE, then checks it)
//        npm run db:backup -- --check FILE     (checks a backup: integrity, and what it holds)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/src/settings/config';
import { chooseStore } from '../server/src/store/open-store';
import { SQLITE_FILE } from '../server/src/store/sqlite/store';

const USAGE = 'Usage: npm run db:backup -- --to FILE   |   npm run db:backup -- --check FILE';

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** Opens `file` read-only and says whether SQLite finds it sound, and how many documents each collection holds. */
function check(file: string): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    fail(`${file} cannot be opened as a database: ${(error as Error).message}`);
  }
  try {
    const problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    if (problems.join() !== 'ok') fail(`${file} is damaged:\n  ${problems.slice(0, 10).join('\n  ')}`);
    const rows = db.prepare('SELECT name, count FROM "$collections" ORDER BY name').all() as Array<{
      name: string;
      count: number;
    }>;
    for (const { name, count } of rows) {
      // The kept count must match the rows actually there.
      const real = (
        db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get() as { n: number }
      ).n;
      if (real !== count) fail(`${file}: ${name} holds ${real} documents but records ${count}.`);
    }
    console.log(`${file} is sound (integrity check: ok). It holds:`);
    for (const { name, count } of rows) console.log(`  ${name.padEnd(20)} ${count}`);
  } finally {
    db.close();
  }
}

const { values } = parseArgs({ options: { to: { type: 'string' }, check: { type: 'string' } } });
if (values.check) {
  check(path.resolve(values.check));
  process.exit(0);
}
if (!values.to) fail(USAGE, 2);

const config = loadConfig();
if ((await chooseStore(config)).kind !== 'embedded')
  fail("The site runs on MongoDB: back it up with MongoDB's own tools (mongodump), not this command.", 2);
const source = path.join(config.dataDir, 'db', SQLITE_FILE);
const target = path.resolve(values.to);
if (!existsSync(source)) fail(`There is no database at ${source} (is DATA_DIR right?).`, 2);
if (existsSync(target))
  fail(`${target} exists already; give a new file name (a backup never overwrites).`, 2);

// SQLite's online backup: copies the live database page by page while the server goes on
// writing; pages changed meanwhile are copied again, so the result is one consistent moment.
const db = new Database(source, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const started = performance.now();
try {
  await db.backup(target);
} catch (error) {
  fail(`The backup stopped: ${(error as Error).message}`);
} finally {
  db.close();
}
console.log(
  `Backed up ${source}\n       to ${target} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
check(target);
