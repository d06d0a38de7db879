// The console's user list at scale: 100,000 users in the embedded store, then the default page,
// a search and a sort, each requested over HTTP one after another, with p50 and p95 printed.
// Usage: npx tsx bench/users-list.bench.ts [--users N] [--runs N]   (target: p95 < 50 ms)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { hashPassword } from '../server/src/features/auth/passwords';
import { demoUsers } from '../server/src/features/users/demo-users';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../server/src/store/embedded-store';

const TARGET_P95_MS = 50;
const TARGETED = ['default page', 'search', 'sort'];
const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' } },
});
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-users-'));
const store = await openEmbeddedStore(dataDir);
try {
  const seeding = performance.now();
  const repository = new UsersRepository(store);
  await repository.init();
  const hash = await hashPassword('demo-password');
  for (let done = 0; done < USERS; done += 5000)
    await repository.insertMany(demoUsers(done, Math.min(5000, USERS - done), hash));
  console.log(`seeded ${USERS} users in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const app = await buildApp({ config, store });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };

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
  await app.close();
  console.log(
    failed
      ? `\nFAIL: a p95 is over ${TARGET_P95_MS} ms`
      : `\nOK: default page, search and sort p95 < ${TARGET_P95_MS} ms`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
}
