// A password-reset mail while mail to members goes out: on `npm start` with a real SMTP server
// (smtp-server, in this process), the time from the forgot-password POST to the reset mail's
// arrival at the SMTP server, many times, in rounds WITH a 20,000-member announcement going out
// and rounds WITHOUT, alternated in one session (each is the other's yardstick). A WITH round
// queues a fresh announcement to every member, waits for its first messages, measures, then
// cancels it and waits until no bulk message arrives for a second.
// Two times per reset: until the SMTP server accepts the mail (what the member waits for), and until
// the product opens the mail's connection to it (the product's own part: smtp-server pauses 100 ms
// before its greeting, to catch clients that talk too early, and that pause is in the first time).
// Usage: npx tsx bench/reset-latency.bench.ts [--members 20000] [--resets 400] [--rounds 8]
//   [--per-minute 6000] [--workers 2]
// Target: p95 WITH within 10 % of p95 WITHOUT, for both times.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { hashPassword } from '../server/src/features/users/passwords';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import { MAIL_BENCH_ADMIN as ADMIN, mailBenchEnv } from './support/mail-bench';
import { signIn, startProduct } from './support/product';
import { seedUsers } from './support/seed-users';

const { values } = parseArgs({
  options: {
    members: { type: 'string', default: '20000' },
    resets: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '8' },
    'per-minute': { type: 'string', default: '6000' },
    workers: { type: 'string', default: '2' },
  },
});
const MEMBERS = Number(values.members);
const RESETS = Number(values.resets);
const ROUNDS = Number(values.rounds);
const PER_ROUND = Math.ceil(RESETS / ROUNDS);
const PER_MINUTE = Number(values['per-minute']);
const resetAddress = (phase: string, i: number) => `reset-${phase}-${i}@bench.example`;
const PHASES = ['without', 'with'] as const;
type CaptureMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'mail'; to: string[]; connectedAt: number; acceptedAt: number };
type Phase = (typeof PHASES)[number];

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-reset-latency-'));
await seedUsers(dataDir, MEMBERS);
{
  const store = await openEmbeddedStore(dataDir);
  const hash = await hashPassword('reset-password');
  await new UsersRepository(store).insertMany(
    PHASES.flatMap((phase) =>
      Array.from({ length: PER_ROUND * ROUNDS }, (_, i) => ({
        name: `Reset ${phase} ${i}`,
        email: resetAddress(phase, i),
        password: hash,
        role: 'user' as const,
        membershipTier: 'free' as const,
        status: 'active' as const,
      })),
    ),
  );
  await store.close();
}

// The SMTP server, in a thread of its own (support/smtp-capture.mjs): when each reset mail arrived
// and when its connection was opened, and when the last bulk message arrived. Times are on the
// epoch clock, as `now()` here.
const now = () => performance.timeOrigin + performance.now();
const arrivals = new Map<string, number>();
const doors = new Map<string, number>();
let bulkReceived = 0;
let lastBulkAt = 0;
const capture = new Worker(new URL('./support/smtp-capture.mjs', import.meta.url));
const smtpPort = await new Promise<number>((resolve, reject) => {
  capture.once('error', reject);
  capture.on('message', (message: CaptureMessage) => {
    if (message.kind === 'listening') return resolve(message.port);
    for (const address of message.to) {
      if (address.startsWith('reset-')) {
        arrivals.set(address, message.acceptedAt);
        doors.set(address, message.connectedAt);
      } else {
        bulkReceived += 1;
        lastBulkAt = message.acceptedAt;
      }
    }
  });
});

const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, `bench-${Date.now()}.log`),
  env: { ...mailBenchEnv(smtpPort), WORKERS: values.workers! },
});
const token = await signIn(product.url, ADMIN);
const call = async (method: string, url: string, body?: unknown) => {
  const response = await fetch(`${product.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST to the SMTP server's acceptance of the mail, and POST to the opening of its connection. */
const times: Record<Phase, number[]> = { without: [], with: [] };
const doorTimes: Record<Phase, number[]> = { without: [], with: [] };
const paces: number[] = [];
/** CPU seconds the product's processes used, and wall seconds, per condition (from /proc). */
const cpu: Record<Phase, { cpu: number; wall: number }> = {
  without: { cpu: 0, wall: 0 },
  with: { cpu: 0, wall: 0 },
};
const ticks = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
};
const productCpu = async () => {
  const pids = [product.supervisorPid, ...(await product.workerPids())];
  return (await Promise.all(pids.map(ticks))).reduce((a, b) => a + b, 0);
};
const next: Record<Phase, number> = { without: 0, with: 0 };

/** Forgot-password for fresh addresses one at a time; the time until each mail is at the SMTP server. */
async function measure(phase: Phase): Promise<void> {
  const [cpuAtStart, wallAtStart] = [await productCpu(), performance.now()];
  for (let n = 0; n < PER_ROUND; n++) {
    const i = next[phase]++;
    const to = resetAddress(phase, i);
    const asked = now();
    const response = await fetch(`${product.url}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.2.${i % 250}.${1 + (i >> 8)}` },
      body: JSON.stringify({ email: to }),
    });
    if (!response.ok) throw new Error(`forgot-password answered ${response.status}`);
    const deadline = asked + 60_000;
    while (!(arrivals.get(to)! > asked) && now() < deadline) await sleep(1);
    times[phase].push((arrivals.get(to) ?? Number.NaN) - asked);
    doorTimes[phase].push((doors.get(to) ?? Number.NaN) - asked);
    await sleep(50 + Math.random() * 50);
  }
  cpu[phase].cpu += (await productCpu()) - cpuAtStart;
  cpu[phase].wall += (performance.now() - wallAtStart) / 1000;
}

async function withBulk(): Promise<void> {
  const before = bulkReceived;
  const queued = await call('POST', '/api/admin/mail/announcements', {
    subject: `Bench announcement ${Date.now()}`,
    markdown: 'Hello **everyone**, this goes out while resets are asked.',
    segment: { kind: 'everyone' },
  });
  while (bulkReceived - before < 20) await sleep(20);
  const started = now();
  const atStart = bulkReceived;
  await measure('with');
  paces.push(((bulkReceived - atStart) / (now() - started)) * 60_000);
  await call('POST', `/api/admin/mail/announcements/${queued.id}/cancel`, {});
  while (now() - lastBulkAt < 1_000) await sleep(100);
}

const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};

let failed = false;
try {
  await call('PUT', '/api/admin/mail/settings', { perMinute: PER_MINUTE });
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so a drift of the machine's load weighs on both alike.
    const order: Phase[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const phase of order) {
      if (phase === 'with') await withBulk();
      else await measure('without');
      const [last, door] = [times[phase].slice(-PER_ROUND), doorTimes[phase].slice(-PER_ROUND)];
      console.log(
        `round ${round + 1} ${phase.padEnd(7)} bulk: accepted p50 ${pct(last, 0.5).toFixed(0)} ms, p95 ${pct(last, 0.95).toFixed(0)} ms; connection opened p50 ${pct(door, 0.5).toFixed(1)} ms, p95 ${pct(door, 0.95).toFixed(1)} ms`,
      );
    }
  }
  console.log('\n| Reset mail, from the POST | resets | p50 | p95 | p99 | max |\n|---|---|---|---|---|---|');
  for (const [what, lists] of [
    ['accepted by the SMTP server', times],
    ['its connection opened', doorTimes],
  ] as const)
    for (const phase of PHASES) {
      const list = lists[phase];
      const ms = (p: number) => `${pct(list, p).toFixed(1)} ms`;
      console.log(
        `| ${what}, ${phase} a bulk send | ${list.length} | ${ms(0.5)} | ${ms(0.95)} | ${ms(0.99)} | ${ms(1)} |`,
      );
    }
  console.log(
    `\nproduct CPU while measuring: without ${(cpu.without.cpu / cpu.without.wall).toFixed(2)} cores, with ${(cpu.with.cpu / cpu.with.wall).toFixed(2)} cores`,
  );
  const ratios = [times, doorTimes].map((lists) => pct(lists.with, 0.95) / pct(lists.without, 0.95));
  const judged = ratios.map((ratio) => `${ratio.toFixed(2)} (${ratio <= 1.1 ? 'ok' : 'OVER TARGET'})`);
  const lost = [times, doorTimes].some((lists) => PHASES.some((phase) => lists[phase].some(Number.isNaN)));
  if (ratios.some((ratio) => ratio > 1.1) || lost) failed = true;
  console.log(
    `\np95 with / without: accepted ${judged[0]}, connection opened ${judged[1]}; bulk pace while measuring: ${paces.map((p) => p.toFixed(0)).join(', ')} a minute (asked ${PER_MINUTE}); load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  );
} finally {
  await product.stop();
  capture.postMessage('close');
  await new Promise((resolve) => capture.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
