// Builds the web client when dist/client is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = [
  'client',
  'common',
  'vite.config.ts',
  'aliases.ts',
  'scripts/vite-precompress.ts',
  'scripts/vite-page-html.ts',
  'package-lock.json',
];

/** The newest modification time of a file, or of anything in a folder (0 when missing). */
export function newestMtime(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildIfStale() {
  const distDir = process.env.CLIENT_DIST_DIR
    ? path.resolve(process.env.CLIENT_DIST_DIR)
    : path.join(root, 'dist/client');
  const built = newestMtime(path.join(distDir, 'index.html'));
  const sources = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
  if (built >= sources) return;
  console.log(built ? 'Web client sources changed: rebuilding…' : 'Building the web client…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', distDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfStale();
