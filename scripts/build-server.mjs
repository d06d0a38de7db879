// Builds the server into plain JavaScript (dist/server/main.js), and beside it the supervisor that
// runs it (dist/server/process/supervisor.js), when either is missing or older than any of its
// sources, so that `npm start` runs both with node alone: no TypeScript compiler at run time, which
// saved about 1.5 s of start-up and 60 MB of memory per server process. Dev mode (`npm run dev`)
// and the tests keep running the TypeScript directly through tsx.
//
// One bundle of our own code per entry (server/ and common/, with the `@common` alias); every
// package in node_modules stays an import, so native modules (better-sqlite3) and packages that
// read their own files load as they always do. A source map sits beside each bundle; stack traces
// use it when the server runs with NODE_OPTIONS=--enable-source-maps (off by default: it costs each
// server process about 5 MB, and the bundle is readable JavaScript with our names kept anyway).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the built server lives (git-ignored). It is two folders deep like server/src, and each
 * bundle lies where its source lies under server/src, so that what the code finds relative to its
 * own file (config.ts: ../../dist/client; the supervisor: the repository) is the same place.
 */
export const SERVER_DIST = path.join(root, 'dist/server');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');
/** `npm start`'s supervisor (server/src/process/supervisor.ts), built with the server. */
export const SUPERVISOR_ENTRY = path.join(SERVER_DIST, 'process/supervisor.js');
/**
 * The process that makes the media library's copies (pictures, posters, videos), started by the
 * server when there are some to make; built beside the server as `copies-child.js`, where
 * features/media/copies/process.ts looks for it.
 */
const COPIES_CHILD = 'server/src/features/media/copies/child.ts';
const COPIES_CHILD_OUT = 'copies-child';
/**
 * What is built, and where: the server, the supervisor at the same depth as its source (it finds
 * the checkout from there), and beside the server the child it forks for the media copies
 * (copies/process.ts finds it there).
 */
const ENTRIES = [
  { in: 'server/src/main.ts', out: 'main' },
  { in: 'server/src/process/supervisor.ts', out: 'process/supervisor' },
  { in: COPIES_CHILD, out: COPIES_CHILD_OUT },
];
const SOURCES = ['server/src', 'common', 'package-lock.json', 'package.json', 'scripts/build-server.mjs'];

/** True when a built file is missing or older than a source. */
export function serverIsStale() {
  const built = Math.min(newestMtime(SERVER_ENTRY), newestMtime(SUPERVISOR_ENTRY));
  return built === 0 || built < Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
}

/** Bundles server/src/main.ts and the supervisor into dist/server (each with its .map). */
export async function buildServer() {
  // Loaded only when a build is due: esbuild is a development tool, not needed to run the server.
  const { build } = await import('esbuild');
  rmSync(SERVER_DIST, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: SERVER_DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages load from node_modules at run time, as they do under tsx.
    packages: 'external',
    alias: { '@common': path.join(root, 'common') },
    sourcemap: 'linked',
    // Stack traces keep our function and class names.
    keepNames: true,
    logLevel: 'warning',
  });
  for (const built of [SERVER_ENTRY, SUPERVISOR_ENTRY, path.join(SERVER_DIST, `${COPIES_CHILD_OUT}.js`)]) {
    const code = readFileSync(built, 'utf8');
    // No banner giving `require`/`__dirname`: nothing bundled uses them (our code is ESM and every
    // package stays external). Should that change, esbuild's stand-in would throw at run time; fail here.
    if (code.includes('__require('))
      throw new Error(`${built} calls require(): give it one (esbuild banner) or import instead.`);
    // ASCII only: esbuild escapes what strings hold, not the doc comments it keeps, and one "…" in
    // a comment made V8 hold the whole server's source as two bytes a character (about 0.6 MB more
    // in every server process). Escaped, it is the same program (\u escapes are valid wherever a
    // character outside ASCII can be).
    const ascii = toAscii(code);
    if (ascii !== code) writeFileSync(built, ascii);
  }
}

/** Every character outside ASCII as a \u escape. */
function toAscii(code) {
  return code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Builds in a child process when stale: esbuild's service process and module would otherwise stay
 * in the memory of whoever asked (npm start's supervisor, for as long as the site runs).
 */
export function buildServerIfStale() {
  if (!serverIsStale()) return;
  console.log(newestMtime(SERVER_ENTRY) ? 'Server sources changed: rebuilding…' : 'Building the server…');
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// `node scripts/build-server.mjs` (or `npm run build:server`) builds now, stale or not.
if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
