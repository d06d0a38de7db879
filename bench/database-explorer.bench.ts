// The database explorer and the move at scale: 100,000 users in the embedded store.
// Times GET /api/admin/mongodb/database/members/details over HTTP (the first call, then warm
// calls, then calls right after a write), the first 20 documents of `users`, and a copy of the
// whole store into a fresh embedded store in documents per second.
// Usage: npx tsx bench/database-explorer.bench.ts [--users N] [--runs N]   (target: details p95 < 500 ms)
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
import { copyStore } from '../server/src/store/store-copy';

const TARGET_P95_MS = 500;
const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '30' } },
});
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-explorer-'));
const copyDir = await mkdtemp(path.join(tmpdir(), 'bench-explorer-copy-'));
const store = await openEmbeddedStore(dataDir);
let failed = false;
try {
  const repository = new UsersRepository(store);
  await repository.init();
  const hash = await hashPassword('demo-password');
  for (let done = 0; done < USERS; done += 5000)
    await repository.insertMany(demoUsers(done, Math.min(5000, USERS - done), hash));

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
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const timed = async (route: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(`${url}${route}`, { headers, ...init });
    const body = await response.text();
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${body}`);
    return performance.now() - started;
  };
  const DETAILS = '/api/admin/mongodb/database/members/details';
  const series = async (label: string, route: string, before?: (i: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await before?.(i);
      times.push(await timed(route));
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    console.log(
      `${label.padEnd(34)}${at(0.5).toFixed(1).padStart(9)}${at(0.95).toFixed(1).padStart(9)}   ${RUNS}`,
    );
    return at(0.95);
  };

  console.log(`${USERS} users in the embedded store\n`);
  console.log(`${'details, first call'.padEnd(34)}${(await timed(DETAILS)).toFixed(1).padStart(9)} ms`);
  console.log(`\n${'request'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}   runs`);
  const warm = await series('details, nothing changed', DETAILS);
  const afterWrite = await series('details, right after a new user', DETAILS, (i) =>
    fetch(`${url}/api/admin/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `New ${i}`, email: `bench-new-${i}@example.com`, password: 'new-pass-1' }),
    }),
  );
  await series(
    'first 20 users (collection)',
    '/api/admin/mongodb/database/members/collection/users?limit=20',
  );
  failed = warm >= TARGET_P95_MS || afterWrite >= TARGET_P95_MS;
  await app.close();

  const target = await openEmbeddedStore(copyDir);
  const result = await copyStore(store, target, { from: 'bench' });
  await target.close();
  const seconds = result.milliseconds / 1000;
  console.log(
    `\ncopy to a fresh embedded store: ${result.documents} documents in ${seconds.toFixed(1)} s = ${Math.round(result.documents / seconds)} documents/s`,
  );
  console.log(
    failed ? `\nFAIL: details p95 is over ${TARGET_P95_MS} ms` : `\nOK: details p95 < ${TARGET_P95_MS} ms`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(copyDir, { recursive: true, force: true });
}
