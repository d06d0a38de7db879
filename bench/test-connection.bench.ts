// Test Connection to a refused port, against `npm start` on its own data folder: the time from
// sending POST /api/admin/mongodb/test (password confirmed beforehand, as the console does) to its
// answer, for a port where nothing listens, 9 times (under the 10 a minute allowed). Reports the
// median and the slowest, and the answer's words. Target: under a second.
// Usage: npx tsx bench/test-connection.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../server/src/test/free-port';
import { confirmPassword, signIn, startProduct } from './support/product';

const RUNS = 9;
const TARGET_MS = 1000;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-test-connection-'));
const server = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
});

let exitCode = 0;
try {
  const token = await signIn(server.url, ADMIN);
  const proof = await confirmPassword(server.url, token, ADMIN.password);
  const port = await freePort();
  const times: number[] = [];
  let message = '';
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/admin/mongodb/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-reauth': proof, 'content-type': 'application/json' },
      body: JSON.stringify({ host: '127.0.0.1', port, database: 'members' }),
    });
    message = ((await response.json()) as { message: string }).message;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const slowest = times.at(-1)!;
  console.log(`Test Connection to 127.0.0.1:${port} (nothing listening), ${RUNS} runs`);
  console.log(`  answer: ${message}`);
  console.log(
    `  median ${median.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms (target < ${TARGET_MS} ms)`,
  );
  if (slowest >= TARGET_MS) exitCode = 1;
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
