// The SQLite store at scale, served by `npm start` as people run it: seeding with `npm run seed`,
// start to first answer, resident memory of the server process, p50/p95 of the console's user
// list (default page, searches, every sort order, far pages; for information searches nearly
// everyone matches and searches of one or two characters), stats, the explorer's details call,
// and the CSV export of every user while /api/health is asked every 50 ms.
// Usage: npx tsx bench/million-users.bench.ts [--users 1000000] [--runs 100] [--data-dir DIR]
//   --data-dir reuses a folder seeded before (`DATA_DIR=DIR npm run seed -- --users N`).
// Targets at 1,000,000: start < 2 s, RSS < 200 MB, list/search/sort/far page/stats p95 < 20 ms,
// details p95 < 100 ms, CSV export < 30 s with /api/health answering within 100 ms throughout.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signIn, startProduct } from './support/product';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '100' },
    'data-dir': { type: 'string' },
  },
});
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
let failed = false;
const check = (ok: boolean) => {
  if (!ok) failed = true;
  return ok ? 'ok' : 'OVER TARGET';
};

const dataDir = values['data-dir'] ?? (await mkdtemp(path.join(tmpdir(), 'bench-million-')));
if (!values['data-dir']) {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const seed = spawn('npm', ['run', '--silent', 'seed', '--', '--users', String(USERS)], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: 'ignore',
    });
    seed.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed exited with ${code}`))));
  });
  console.log(`npm run seed -- --users ${USERS}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const startedAt = performance.now();
const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, `bench-${Date.now()}.log`),
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
});
const startMs = performance.now() - startedAt;
console.log(
  `start to first answer (npm start, polled every 200 ms): ${(startMs / 1000).toFixed(2)} s  ${check(startMs < 2000)}`,
);

async function rssMb(): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${await product.serverPid()}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

try {
  const url = product.url;
  const token = await signIn(url, ADMIN);
  const headers = { authorization: `Bearer ${token}` };
  const total = (await (await fetch(`${url}/api/admin/stats`, { headers })).json()).data.totalUsers as number;
  const middle = Math.floor(total / 10 / 2);
  const SORTS = ['name', 'email', 'role', 'membershipTier', 'status', 'createdAt'];
  // Parts of names and e-mails, in any case, that match from a handful to a few percent of the members.
  const SEARCHES = [
    'smith',
    'OLIVIA',
    'garc',
    'ngu',
    'ana.kim',
    'rossi.1',
    '.4242',
    'MüLLER',
    "o'brien",
    'tanaka.9',
  ];
  // Parts of the e-mail domains nearly every member has, each text asked once (no count reused).
  const COMMON = [
    'example.c',
    'xample.co',
    'ample.com',
    'example.o',
    'xample.or',
    'ample.org',
    'mple.com',
    'mple.org',
    'le.com',
    'le.org',
    'example.n',
    'xample.ne',
    'ample.net',
    'mple.net',
    'le.net',
    'example.i',
    'xample.io',
    'ample.io',
    'mple.io',
    'le.io',
    'e.com',
    'e.org',
    'e.net',
    'e.io',
    'exam',
    'xamp',
  ];
  // One or two characters, too short for the trigram index: common ones and ones nobody has.
  const SHORT = ['a', 'q', 'ü', '.9', 'zq', 'xx', 'Ø', 'k'];
  const cases: Array<[label: string, target: number, path: (i: number) => string]> = [
    ['default page', 20, () => '/api/admin/users'],
    [
      'search',
      20,
      (i) =>
        `/api/admin/users?search=${encodeURIComponent(`${SEARCHES[i % SEARCHES.length]}${i >= SEARCHES.length ? i % 97 : ''}`)}`,
    ],
    [
      'sort',
      20,
      (i) =>
        `/api/admin/users?sortBy=${SORTS[i % SORTS.length]}&sortOrder=${Math.floor(i / SORTS.length) % 2 ? 'asc' : 'desc'}`,
    ],
    [
      'far page',
      20,
      (i) => `/api/admin/users?page=${middle + i}&sortBy=${SORTS[i % SORTS.length]}&sortOrder=asc`,
    ],
    ['stats', 20, () => '/api/admin/stats'],
    ['details', 100, () => '/api/admin/mongodb/database/members/details'],
    // For information: text that nearly every member has (the common e-mail domain).
    ['common search', 0, (i) => `/api/admin/users?search=${encodeURIComponent(COMMON[i % COMMON.length]!)}`],
    ['short search', 0, (i) => `/api/admin/users?search=${encodeURIComponent(SHORT[i % SHORT.length]!)}`],
  ];
  console.log(
    `\n${total} users. ${'request'.padEnd(14)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}   runs`,
  );
  for (const [label, target, path] of cases) {
    const times: number[] = [];
    const runs =
      label === 'common search' ? COMMON.length - 5 : label === 'short search' ? SHORT.length * 2 : RUNS;
    for (let i = 0; i < runs + 5; i++) {
      const started = performance.now();
      const response = await fetch(`${url}${path(i)}`, { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${path(i)} answered ${response.status}`);
      if (i >= 5) times.push(performance.now() - started);
      if (process.env.BENCH_DEBUG && performance.now() - started > 20)
        console.log('  slow:', path(i), (performance.now() - started).toFixed(1), 'ms');
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    const verdict = target ? check(at(0.95) < target) : '(information)';
    console.log(
      `${''.padEnd(total.toString().length + 8)}${label.padEnd(14)}${at(0.5).toFixed(1).padStart(9)}${at(0.95).toFixed(1).padStart(9)}${times.at(-1)!.toFixed(1).padStart(9)}   ${runs}  ${verdict}`,
    );
  }

  const before = await rssMb();
  console.log(`\nserver process resident memory before the export: ${before.rss.toFixed(0)} MB`);
  // The export of every user, while another client asks /api/health every 50 ms.
  let slowestHealth = 0;
  let exporting = true;
  const health = (async () => {
    while (exporting) {
      const started = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const exportStarted = performance.now();
  const csv = await fetch(`${url}/api/admin/users/export.csv`, { headers });
  let bytes = 0;
  let lines = 0;
  const reader = csv.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  exporting = false;
  await health;
  console.log(
    `\nCSV export: ${lines - 1} rows, ${(bytes / 1e6).toFixed(0)} MB in ${exportSeconds.toFixed(1)} s  ${check(exportSeconds < 30 && lines - 1 === total)}`,
  );
  console.log(
    `/api/health during the export: slowest answer ${slowestHealth.toFixed(0)} ms  ${check(slowestHealth < 100)}`,
  );
  const memory = await rssMb();
  console.log(
    `server process resident memory: ${memory.rss.toFixed(0)} MB now, ${memory.peak.toFixed(0)} MB at most  ${check(memory.peak < 200)}`,
  );
} finally {
  await product.stop();
  if (!values['data-dir']) await rm(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.log('\nFAIL: a figure is over its target');
  process.exitCode = 1;
}
