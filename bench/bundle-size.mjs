// Landing-page JavaScript, gzipped: the entry script and every chunk index.html preloads.
// Lazy chunks (the admin console) are excluded because a visitor never downloads them.
// Usage: node bench/bundle-size.mjs   (builds the client into a temporary folder first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const outDir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
try {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', outDir], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const scripts = [
    ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
  ].map((m) => m[1]);
  const rows = scripts.map((src) => {
    const bytes = readFileSync(path.join(outDir, src));
    return { file: src, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  for (const row of rows)
    console.log(`${row.file.padEnd(44)} ${kb(row.raw).padStart(9)} raw ${kb(row.gzip).padStart(9)} gzip`);
  console.log(`Landing-page JavaScript: ${kb(total)} gzipped (budget ${BUDGET_KB} KB)`);
  if (total > BUDGET_KB * 1024) {
    console.error('Over budget.');
    process.exitCode = 1;
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
