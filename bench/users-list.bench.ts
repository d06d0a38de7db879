// The console's user list at scale: 100,000 users in the embedded store, served by `npm start` as
// people run it (its own process, default settings); then the default page,
// a search and a sort, each requested over HTTP one after another, with p50 and p95 printed.
// Usage: npx tsx bench/users-list.bench.ts [--users N] [--runs N]   (target: p95 < 50 ms)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signIn, startProduct } from './support/product';
import { seedUsers } from './support/seed-users';

const TARGET_P95_MS = 50;
const TARGETED = ['default page', 'search', 'sort'];
const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' } },
});
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-users-'));
const seeding = performance.now();
await seedUsers(dataDir, USERS);
console.log(`seeded ${USERS} users in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
});
try {
  const url = product.url;
  const token = await signIn(url, ADMIN);

  // Every search text differs, so no answer is reused from an earlier identical request (the
  // store does reuse one scan for a request's count and its page, as it would for paging).
  const WORDS = ['smith', 'olivia', 'example.org', 'kim', 'garcia', 'noah', 'rosa', 'patel', 'inbox', 'zz'];
  const SORTS = ['name', 'email', 'role', 'membershipTier', 'status', 'createdAt'];
  const cases: Array<[label: string, runs: number, path: (i: number) => string]> = [
    ['default page', RUNS, () => '/api/admin/users'],
    [
      'search',
      RUNS,
      (i) =>
        `/api/admin/users?search=${encodeURIComponent(`${WORDS[i % WORDS.length]}${i % 3 ? '' : i}`.slice(0, 12 - (i % 5)))}`,
    ],
    [
      'sort',
      RUNS,
      (i) =>
        `/api/admin/users?sortBy=${SORTS[i % SORTS.length]}&sortOrder=${Math.floor(i / SORTS.length) % 2 ? 'asc' : 'desc'}`,
    ],
    ['stats', RUNS, () => '/api/admin/stats'],
    // Informational: far pages sort every match, like a database without an index would.
    ['page 500', Math.min(RUNS, 20), () => '/api/admin/users?page=500&sortBy=name&sortOrder=asc'],
  ];

  let failed = false;
  console.log(
    `\n${'request'.padEnd(14)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}   runs`,
  );
  for (const [label, runs, path] of cases) {
    const times: number[] = [];
    for (let i = 0; i < runs + 10; i++) {
      const started = performance.now();
      const response = await fetch(`${url}${path(i)}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${path(i)} answered ${response.status}`);
      if (i >= 10) times.push(performance.now() - started); // the first few warm up the JIT
      if (process.env.BENCH_DEBUG && performance.now() - started > 20)
        console.log('slow', path(i), (performance.now() - started).toFixed(1));
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    const p95 = at(0.95);
    if (TARGETED.includes(label) && p95 >= TARGET_P95_MS) failed = true;
    console.log(
      `${label.padEnd(14)}${at(0.5).toFixed(1).padStart(9)}${p95.toFixed(1).padStart(9)}${times.at(-1)!.toFixed(1).padStart(9)}   ${runs}`,
    );
  }
  console.log(
    failed
      ? `\nFAIL: a p95 is over ${TARGET_P95_MS} ms`
      : `\nOK: default page, search and sort p95 < ${TARGET_P95_MS} ms`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await product.stop();
  await rm(dataDir, { recursive: true, force: true });
}
