// The database explorer and the move at scale: 100,000 users in the embedded store.
// The product runs as `npm start` runs it (its own process, default settings) on a data folder
// seeded beforehand. Times GET /api/admin/mongodb/database/members/details over HTTP (the first
// call, then warm calls, then calls right after a write) and the first 20 documents of `users`;
// then, with the server stopped, `npm run db:copy` copies the whole store into a fresh embedded
// store, as an owner would, and its documents per second are printed.
// Usage: npx tsx bench/database-explorer.bench.ts [--users N] [--runs N]   (target: details p95 < 500 ms)
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { signIn, startProduct } from './support/product';
import { seedUsers } from './support/seed-users';

const TARGET_P95_MS = 500;
const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '30' } },
});
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-explorer-'));
const copyDir = await mkdtemp(path.join(tmpdir(), 'bench-explorer-copy-'));
try {
  await seedUsers(dataDir, USERS);

  const product = await startProduct({
    dataDir,
    logFile: path.join(dataDir, 'server.log'),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  });
  let failed = false;
  try {
    const url = product.url;
    const token = await signIn(url, ADMIN);
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

    console.log(`${USERS} users in the embedded store, served by npm start\n`);
    console.log(`${'details, first call'.padEnd(34)}${(await timed(DETAILS)).toFixed(1).padStart(9)} ms`);
    console.log(`\n${'request'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}   runs`);
    const warm = await series('details, nothing changed', DETAILS);
    const afterWrite = await series('details, right after a new user', DETAILS, (i) =>
      fetch(`${url}/api/admin/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: `New ${i}`,
          email: `bench-new-${i}@example.com`,
          password: 'new-pass-1',
        }),
      }),
    );
    await series(
      'first 20 users (collection)',
      '/api/admin/mongodb/database/members/collection/users?limit=20',
    );
    failed = warm >= TARGET_P95_MS || afterWrite >= TARGET_P95_MS;
  } finally {
    await product.stop();
  }

  // The copy as an owner runs it; the command prints its own documents per second.
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'db:copy', '--', '--to', `embedded:${copyDir}`, '--copy-only'],
    { cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, DATA_DIR: dataDir } },
  );
  const rate = /(\d+) documents in ([\d.]+) s \((\d+) documents\/s\)/.exec(stdout);
  if (!rate) throw new Error(`db:copy printed no rate:\n${stdout}`);
  console.log(`\nnpm run db:copy to a fresh embedded store: ${rate[0]}`);
  console.log(
    failed ? `\nFAIL: details p95 is over ${TARGET_P95_MS} ms` : `\nOK: details p95 < ${TARGET_P95_MS} ms`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await rm(copyDir, { recursive: true, force: true });
}
