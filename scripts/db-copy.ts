// Copies the site's whole store into another one, then (unless --copy-only) makes the next start use it.
// Usage: npm run db:copy -- --to <mongodb-uri | embedded[:dir]> [--from <mongodb-uri | embedded[:dir]>] [--copy-only]
// The source is, unless --from says otherwise, the store `npm start` would open. Stop the server first.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { redactUri } from '../server/src/lib/redact';
import { loadConfig } from '../server/src/settings/config';
import { readStoreSettings, writeStoreSettings } from '../server/src/settings/store-settings';
import { openMongoStore } from '../server/src/store/mongo/store';
import { chooseStore } from '../server/src/store/open-store';
import { lockOwner } from '../server/src/store/sqlite/lock';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import type { Store } from '../server/src/store/store';
import { copyStore } from '../server/src/store/store-copy';

type Place = { kind: 'embedded'; dir: string } | { kind: 'mongodb'; uri: string };

const USAGE =
  'Usage: npm run db:copy -- --to <mongodb-uri | embedded[:dir]> [--from <mongodb-uri | embedded[:dir]>] [--copy-only]';

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

function parsePlace(text: string, dataDir: string): Place {
  if (/^mongodb(\+srv)?:\/\//.test(text)) return { kind: 'mongodb', uri: text };
  if (text === 'embedded') return { kind: 'embedded', dir: dataDir };
  if (text.startsWith('embedded:'))
    return { kind: 'embedded', dir: path.resolve(text.slice('embedded:'.length)) };
  return fail(`Not a store: ${text}\n${USAGE}`, 2);
}

const describePlace = (place: Place) =>
  place.kind === 'embedded' ? `the embedded store in ${place.dir}` : `MongoDB at ${redactUri(place.uri)}`;

async function open(place: Place): Promise<Store> {
  if (place.kind === 'mongodb') return openMongoStore(place.uri);
  const user = await lockOwner(path.join(place.dir, 'db'));
  if (user) {
    fail(
      `A server (process ${user}) is using ${describePlace(place)}. Stop it first: a copy of data that is still changing would miss the latest writes.`,
    );
  }
  return openEmbeddedStore(place.dir);
}

const { values } = parseArgs({
  options: {
    to: { type: 'string' },
    from: { type: 'string' },
    'copy-only': { type: 'boolean', default: false },
  },
});
if (!values.to) fail(USAGE, 2);

const config = loadConfig();
const chosen = await chooseStore(config);
const from: Place = values.from
  ? parsePlace(values.from, config.dataDir)
  : chosen.kind === 'embedded'
    ? { kind: 'embedded', dir: config.dataDir }
    : { kind: 'mongodb', uri: chosen.uri };
const to = parsePlace(values.to, config.dataDir);
if (describePlace(from) === describePlace(to))
  fail(`The source and the target are the same: ${describePlace(to)}.`, 2);

console.log(`Copying ${describePlace(from)}\n     to ${describePlace(to)}`);
const source = await open(from);
const target = await open(to);
let width = 0;
try {
  const result = await copyStore(source, target, {
    from: describePlace(from),
    onProgress: ({ collection, copied, total }) => {
      const line = `  ${collection}: ${copied.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`;
      // One line rewritten in a terminal; in a log, a line per 10,000 documents and one per collection.
      if (process.stdout.isTTY) {
        process.stdout.write(`\r${line.padEnd(width)}`);
        width = line.length;
      } else if (copied === total || copied % 10_000 === 0) console.log(line);
    },
  });
  if (width) process.stdout.write(`\r${''.padEnd(width)}\r`);
  const seconds = result.milliseconds / 1000;
  console.log('Copied and checked (documents in the source = documents in the target):');
  for (const [name, count] of Object.entries(result.counts)) console.log(`  ${name.padEnd(20)} ${count}`);
  console.log(
    `${result.documents} documents in ${seconds.toFixed(1)} s (${Math.round(result.documents / Math.max(seconds, 0.001))} documents/s).`,
  );
} catch (error) {
  if (width) process.stdout.write('\n');
  const hint =
    to.kind === 'embedded' && /not empty/.test(String(error))
      ? `\nTo copy back into ${to.dir}, move its old db/ folder aside first (e.g. mv ${path.join(to.dir, 'db')} ${path.join(to.dir, 'db.before')}).`
      : '';
  await Promise.allSettled([source.close(), target.close()]);
  fail(`The copy stopped: ${(error as Error).message}${hint}`);
}
await Promise.all([source.close(), target.close()]);

if (values['copy-only']) {
  console.log('Nothing switched (--copy-only).');
} else if (to.kind === 'mongodb' || to.dir === config.dataDir) {
  const saved = await readStoreSettings(config.dataDir);
  await writeStoreSettings(config.dataDir, {
    ...saved,
    use: to.kind,
    uri: to.kind === 'mongodb' ? to.uri : undefined,
    switchedAt: new Date().toISOString(),
    switchedBy: 'npm run db:copy',
  });
  console.log(
    `The next start uses ${describePlace(to)} (saved in ${path.join(config.dataDir, 'database.json')}).`,
  );
  if (config.mongodbUri)
    console.log('Note: MONGODB_URI is set in this environment, and it wins over the saved choice.');
} else {
  console.log(
    `To run on it, start the server with DATA_DIR=${to.dir} (media and settings files live there too).`,
  );
}
