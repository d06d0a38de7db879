// One site over several workers (issue 19.3): `npm start` with WORKERS=2 on its own data folder.
// 1. A slideshow change saved through one worker, then the public slides asked on fresh
//    connections (the supervisor hands each to the next worker) every 20 ms until two in a row,
//    so both workers, serve it: the time from the save's answer to that, 20 changes.
// 2. Counting requests costs no fsync: both workers traced by Debian's strace
//    (`-f -y -e trace=fsync,fdatasync`) while 1,000 requests counted by the general rate limit
//    (`GET /api/auth/me` without a token, 401) and 50 wrong-password sign-ins are sent; the
//    fsync/fdatasync calls are counted per file (the counters' file against the site's data).
// Usage: npx tsx bench/shared-state.bench.ts [--changes 20] [--requests 1000]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { signIn, startProduct } from './support/product';

const { values: options } = parseArgs({
  options: { changes: { type: 'string', default: '20' }, requests: { type: 'string', default: '1000' } },
});
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
const TARGET_MS = 1000;

/** One request on a connection of its own, so that each goes to the next worker. */
function call(
  url: string,
  method = 'GET',
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-shared-state-'));
const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  // A limit no request here reaches, so that every one of them is counted (a write to the counters).
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, WORKERS: '2', RATE_LIMIT_MAX: '1000000' },
});
let exitCode = 0;
try {
  const token = await signIn(product.url, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const cycleTime = async () =>
    (
      JSON.parse((await call(`${product.url}/api/slider/public`)).text) as {
        data: { config: { cycleTime: number } };
      }
    ).data.config.cycleTime;

  // 1. Change to served by every worker.
  const config = JSON.parse(
    (await call(`${product.url}/api/slider/config`, 'GET', undefined, auth)).text,
  ).data;
  const delays: number[] = [];
  for (let i = 0; i < Number(options.changes); i++) {
    const wanted = 5000 + (i % 2 ? 1000 : 2000) + i;
    // Both workers hold the old answer in their caches first.
    await cycleTime();
    await cycleTime();
    const saved = await call(
      `${product.url}/api/slider/config`,
      'PUT',
      { ...config, cycleTime: wanted },
      auth,
    );
    if (saved.status !== 200) throw new Error(`the save answered ${saved.status}: ${saved.text}`);
    const start = performance.now();
    let inARow = 0;
    while (inARow < 2) {
      inARow = (await cycleTime()) === wanted ? inARow + 1 : 0;
      if (performance.now() - start > 5000)
        throw new Error('a worker still served the old settings after 5 s');
      if (inARow < 2) await sleep(20);
    }
    delays.push(performance.now() - start);
    await sleep(100);
  }
  delays.sort((a, b) => a - b);
  const p50 = delays[Math.floor(delays.length / 2)]!;
  const worst = delays.at(-1)!;
  console.log(
    `slideshow change served by both workers: p50 ${p50.toFixed(0)} ms, worst ${worst.toFixed(0)} ms of ${delays.length} (target < ${TARGET_MS} ms)`,
  );
  if (worst >= TARGET_MS) exitCode = 1;

  // 2. fsyncs while counting.
  const status = JSON.parse(
    (await call(`${product.url}/api/admin/nodejs/status`, 'GET', undefined, auth)).text,
  );
  const pids: number[] = status.status.workers.map((worker: { pid: number }) => worker.pid);
  const traceFile = path.join(dataDir, 'strace.txt');
  const strace = spawn(
    'strace',
    [
      '-f',
      '-y',
      '-e',
      'trace=fsync,fdatasync',
      '-o',
      traceFile,
      ...pids.flatMap((pid) => ['-p', String(pid)]),
    ],
    {
      stdio: 'ignore',
    },
  );
  await sleep(1000);
  const traced = async () =>
    (await readFile(traceFile, 'utf8').catch(() => '')).split('\n').filter((line) => /sync\(/.test(line));
  const before = (await traced()).length;
  const requests = Number(options.requests);
  let limited = 0;
  for (let i = 0; i < requests; i++)
    if ((await call(`${product.url}/api/auth/me`)).status === 429) limited += 1;
  await sleep(1000); // the last batch is added to the shared counts
  const afterRequests = await traced();
  for (let i = 0; i < 50; i++)
    await call(
      `${product.url}/api/auth/login`,
      'POST',
      { email: ADMIN.email, password: `wrong-${i}` },
      { 'x-forwarded-for': `203.0.113.${i + 1}` },
    );
  await sleep(500);
  const afterSignIns = await traced();
  strace.kill('SIGINT');
  const perFile = (lines: string[]) => {
    const files = new Map<string, number>();
    for (const line of lines) {
      const file = /<([^>]+)>/.exec(line)?.[1] ?? '?';
      files.set(path.basename(file), (files.get(path.basename(file)) ?? 0) + 1);
    }
    return [...files].map(([file, n]) => `${file}: ${n}`).join(', ') || 'none';
  };
  const duringRequests = afterRequests.slice(before);
  const duringSignIns = afterSignIns.slice(afterRequests.length);
  console.log(
    `${requests} requests counted by the general limit (${limited} refused with 429), both workers traced: fsync/fdatasync ${duringRequests.length} (${perFile(duringRequests)})`,
  );
  console.log(
    `50 wrong-password sign-ins: fsync/fdatasync ${duringSignIns.length} (${perFile(duringSignIns)}; the counters' file must not appear)`,
  );
  if (
    duringRequests.some((line) => line.includes('counters.sqlite')) ||
    duringSignIns.some((line) => line.includes('counters.sqlite'))
  )
    exitCode = 1;
} finally {
  await product.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
