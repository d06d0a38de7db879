// Landing-page JavaScript, gzipped: every script that opening / downloads, measured in a real
// browser rather than guessed from index.html: the entry and what it preloads (until the load
// event), and what the page fetches afterwards (the slideshow, once the browser is idle).
// Each file is sized as gzip -9 of the built file (the server sends brotli, which is smaller).
// It also checks, from the source maps, that no console code, react-query or zod is among them.
// Usage: node bench/bundle-size.mjs   (builds the client into a temporary folder first;
//        needs Chromium at /usr/bin/chromium or CHROMIUM_PATH)     budget: 100 KB in all
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const BUDGET_KB = 100;
/** Code a public page must never download. */
const FORBIDDEN = [
  /node_modules\/@tanstack\//,
  /node_modules\/zod\//,
  // The console: its shell, its kit, the console-only features and every feature's admin/ part.
  /client\/src\/(features\/(admin|admin-users|media|overview|[\w-]+\/admin)|components\/console)\//,
];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SETTLE_MS = 3000;

const outDir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
const server = createServer((request, response) => {
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
  if (pathname.startsWith('/api/')) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  // The landing page as the server sends it: pre-rendered (scripts/vite-page-html.ts).
  const page = pathname === '/' ? 'pages/home.html' : 'index.html';
  const file = path.join(outDir, path.extname(pathname) ? path.normalize(pathname) : page);
  if (!file.startsWith(outDir) || !existsSync(file)) {
    response.writeHead(404).end();
    return;
  }
  const type = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.html': 'text/html',
    '.svg': 'image/svg+xml',
  };
  response.writeHead(200, { 'content-type': type[path.extname(file)] ?? 'application/octet-stream' });
  response.end(readFileSync(file));
});

try {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', outDir], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const scripts = [];
  let loaded = false;
  try {
    const page = await browser.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === origin && url.pathname.endsWith('.js'))
        scripts.push({ file: url.pathname, phase: loaded ? 'after load' : 'page load' });
    });
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    loaded = true;
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(SETTLE_MS);
  } finally {
    await browser.close();
  }

  const rows = scripts.map(({ file, phase }) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { file, phase, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  for (const row of rows)
    console.log(
      `${row.file.padEnd(44)} ${kb(row.raw).padStart(9)} raw ${kb(row.gzip).padStart(9)} gzip   ${row.phase}`,
    );
  const sum = (phase) => rows.filter((r) => !phase || r.phase === phase).reduce((s, r) => s + r.gzip, 0);
  console.log(
    `Until the load event: ${kb(sum('page load'))}; after load (slideshow): ${kb(sum('after load'))}`,
  );
  console.log(`Landing-page JavaScript: ${kb(sum())} gzipped (budget ${BUDGET_KB} KB)`);

  const bad = rows.flatMap(({ file }) => {
    // The page-view beacon (client/public/beacon.js) is written by hand, not built: no map, no module.
    if (!file.startsWith('/assets/')) return [];
    const map = JSON.parse(readFileSync(path.join(outDir, `${file}.map`), 'utf8'));
    return map.sources.filter((source) => FORBIDDEN.some((f) => f.test(source))).map((s) => `${file}: ${s}`);
  });
  if (bad.length) console.error(`Code the landing page must not load:\n  ${bad.join('\n  ')}`);
  if (sum() > BUDGET_KB * 1024) console.error('Over budget.');
  process.exitCode = bad.length || sum() > BUDGET_KB * 1024 ? 1 : 0;
} finally {
  server.close();
  rmSync(outDir, { recursive: true, force: true });
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
