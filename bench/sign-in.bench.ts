// Sign-in against `npm start` (default settings) on a fresh data dir, three ways:
//   api:        POST /api/auth/login round trip, one at a time (argon2id verification dominates)
//   browser:    in headless Chromium, from clicking "Sign In" until the dashboard text shows
//   throughput: sign-ins per second with `--concurrency` (16) in flight for `--seconds` (10), each
//               for one of 500 members from its own address (X-Forwarded-For, as nginx on this
//               machine would pass it: the product trusts it from loopback only), so that no
//               limit is hit; with WORKERS=N for each N of `--workers` (1,2), alternating for
//               `--rounds` (2) rounds, the product restarted for each.
// Usage: npx tsx bench/sign-in.bench.ts [--workers 1,2] [--seconds 10] [--concurrency 16]
//          [--rounds 2] [--no-latency]   (needs /usr/bin/chromium for the browser part)
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { demoUsers } from '../scripts/demo/users';
import { hashPassword } from '../server/src/features/users/passwords';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import { type Product, startProduct } from './support/product';

const RUNS = 20;
const MEMBERS = 500;
const MEMBER_PASSWORD = 'bench-member-password';
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
    'no-latency': { type: 'boolean', default: false },
  },
});
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-signin-'));
await seedMembers(dataDir);
if (!values['no-latency']) await latency();
await throughput();
await rm(dataDir, { recursive: true, force: true });

/** Members with known e-mails and one password, straight into the store before the product starts. */
async function seedMembers(dir: string): Promise<void> {
  const store = await openEmbeddedStore(dir);
  try {
    const users = new UsersRepository(store);
    await users.init();
    const hash = await hashPassword(MEMBER_PASSWORD);
    await users.insertMany(
      demoUsers(0, MEMBERS, hash).map((user, i) => ({
        ...user,
        email: member(i),
        status: 'active' as const,
      })),
    );
  } finally {
    await store.close();
  }
}

function member(i: number): string {
  return `member-${i}@bench.example`;
}

async function throughput(): Promise<void> {
  const workerCounts = values.workers.split(',').map(Number);
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  const results = new Map<number, number[]>(workerCounts.map((n) => [n, []]));
  console.log(
    `\nthroughput: ${concurrency} sign-ins in flight, ${seconds} s per run, load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  );
  let next = 0;
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const workers of workerCounts) {
      const product = await startProduct({
        dataDir,
        logFile: path.join(dataDir, 'server.log'),
        env: { WORKERS: String(workers) },
      });
      try {
        const running = (await product.workerPids()).length;
        const times: number[] = [];
        const until = performance.now() + seconds * 1000;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (performance.now() < until) {
              const n = next++;
              const at = performance.now();
              const response = await signInAs(product, n);
              if (response.status !== 200)
                throw new Error(`sign-in ${n} answered ${response.status}: ${await response.text()}`);
              times.push(performance.now() - at);
            }
          }),
        );
        const rate = times.length / ((performance.now() - started) / 1000);
        results.get(workers)!.push(rate);
        const sorted = times.sort((a, b) => a - b);
        console.log(
          `round ${round} WORKERS=${workers} (${running} server process${running === 1 ? '' : 'es'}): ${rate.toFixed(1)} sign-ins/s, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(0)} ms`,
        );
      } finally {
        await product.stop();
      }
    }
  }
  for (const [workers, rates] of results) {
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    console.log(
      `throughput WORKERS=${workers}: ${mean.toFixed(1)} sign-ins/s (mean of ${rates.length} runs)`,
    );
  }
}

/** One member from their own address (a new one for every sign-in: no address limit is reached). */
function signInAs(product: Product, n: number) {
  return fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    },
    body: JSON.stringify({ email: member(n % MEMBERS), password: MEMBER_PASSWORD }),
  });
}

async function latency(): Promise<void> {
  // npm start as people run it (it builds the client first when that is stale).
  const server = await startProduct({ dataDir, logFile: path.join(dataDir, 'server.log') });
  const person = { name: 'Bench Person', email: 'bench@example.com', password: 'bench-password' };
  const post = (url: string, body: unknown) =>
    fetch(`${server.url}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    await post('/api/auth/register', person);

    const api: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const response = await post('/api/auth/login', { email: person.email, password: person.password });
      if (response.status !== 200) throw new Error(`login answered ${response.status}`);
      api.push(performance.now() - started);
    }
    report('api', api);

    if (existsSync('/usr/bin/chromium')) {
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
        ],
      });
      const ui: number[] = [];
      // Fewer runs than the API: each browser sign-in is also a sign-in attempt against the rate limit.
      for (let i = 0; i < 10; i++) {
        const page = await browser.newPage();
        await page.goto(`${server.url}/login`);
        await page.getByLabel('Email').fill(person.email);
        await page.getByLabel('Password', { exact: true }).fill(person.password);
        const started = performance.now();
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.getByText('This is your user dashboard.').waitFor();
        ui.push(performance.now() - started);
        await page.close();
      }
      report('browser', ui);
      await browser.close();
    } else {
      console.log('browser: skipped (no /usr/bin/chromium)');
    }
  } finally {
    await server.stop();
  }
}

function report(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(
    `sign-in ${label.padEnd(8)} median ${at(0.5)} ms   p95 ${at(0.95)} ms   (${samples.length} runs)`,
  );
}
