// Mail to members at scale, on `npm start` with a real SMTP server (smtp-server, in this process):
// 1. the reset mail's latency (forgot-password asked to the message at the SMTP server) with no bulk send;
// 2. queuing an announcement to every member: the owner's wait for the count and for the queuing,
//    and the server processes' peak resident memory from then on;
// 3. the reset mail's latency again while that announcement goes out at the owner's pace, and
//    the pace reached; duplicates counted by Message-ID at the SMTP server.
// Usage: npx tsx bench/member-mail.bench.ts [--users 1000000] [--data-dir DIR] [--send-seconds 30] [--resets 30] [--seed-only]
//   --data-dir keeps the folder: seeded by the first run (--seed-only: then stops), reused by the next ones.
// Targets: queuing < 5 s of the owner's wait at 1,000,000; reset p95 with a bulk send within 10 % of
// the p95 without (or within 50 ms, the SMTP round trip's own noise); no duplicate.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { CoursesRepository } from '../server/src/features/courses/courses.repository';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import { MAIL_BENCH_ADMIN as ADMIN, mailBenchEnv } from './support/mail-bench';
import { residentMb, signIn, startProduct } from './support/product';
import { seedMemberMail } from './support/seed-member-mail';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    'send-seconds': { type: 'string', default: '30' },
    resets: { type: 'string', default: '30' },
    'seed-only': { type: 'boolean', default: false },
  },
});
const USERS = Number(values.users);
const RESETS = Number(values.resets);
const resetAddress = (phase: string, i: number) => `reset-${phase}-${i}@bench.example`;

const dataDir = values['data-dir'] ?? (await mkdtemp(path.join(tmpdir(), 'bench-member-mail-')));
if (!existsSync(path.join(dataDir, 'db'))) {
  const started = performance.now();
  const seeded = await seedMemberMail(
    dataDir,
    USERS,
    ['quiet', 'busy'].flatMap((phase) => Array.from({ length: RESETS }, (_, i) => resetAddress(phase, i))),
  );
  console.log(
    `seeded ${USERS} members (${seeded.off} with announcements off, ${seeded.stopped} stopped, ${seeded.started} started the paid course) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (values['seed-only']) process.exit(0);
}

// The SMTP server: when each message arrived, and how many times each Message-ID did.
const arrivals = new Map<string, number>();
const messageIds = new Map<string, number>();
let bulkReceived = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
        arrivals.set(to, performance.now());
        messageIds.set(mail.messageId ?? '', (messageIds.get(mail.messageId ?? '') ?? 0) + 1);
        if (mail.headerLines.some((line) => line.key === 'list-unsubscribe')) bulkReceived += 1;
        callback();
      })
      .catch(callback);
  },
});
// A connection cut by the kill -9 (or a restart) is not the capture's problem.
smtp.on('error', () => undefined);
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as { port: number }).port;

// The yardstick, in this process before the product starts: the count as the code before this
// bench's version made it (one filter on the members' fields: a read of each member), and the
// bench course's id.
const before = await openEmbeddedStore(dataDir);
let started = performance.now();
const oldCount = await new UsersRepository(before).count({ role: 'user', status: 'active' });
const oldCountMs = performance.now() - started;
const course = await new CoursesRepository(before).findCourseBySlug('bench-course');
await before.close();
console.log(
  `yardstick, the count before (one filter, every member read): ${oldCount} in ${oldCountMs.toFixed(0)} ms`,
);

const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, `bench-${Date.now()}.log`),
  env: mailBenchEnv(smtpPort),
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

/** Forgot-password for each address in turn; the time until its mail is at the SMTP server. */
async function resetLatencies(phase: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RESETS; i++) {
    const to = resetAddress(phase, i);
    const asked = performance.now();
    await fetch(`${product.url}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.${i}.1` },
      body: JSON.stringify({ email: to }),
    });
    const deadline = asked + 60_000;
    while (!(arrivals.get(to)! > asked) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 2));
    times.push((arrivals.get(to) ?? Number.NaN) - asked);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return times.sort((a, b) => a - b);
}
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
let peakMb = 0;
/** Each process's own peak (the supervisor first, then the workers). */
const peakOf = new Map<number, number>();
const sample = async () => {
  const pids = [product.supervisorPid, ...(await product.workerPids())];
  const each = await Promise.all(pids.map(residentMb));
  for (const [i, pid] of pids.entries()) peakOf.set(pid, Math.max(peakOf.get(pid) ?? 0, each[i]!));
  const total = each.reduce((a, b) => a + b, 0);
  peakMb = Math.max(peakMb, total);
  return total;
};

let failed = false;
try {
  await call('PUT', '/api/admin/mail/settings', { perMinute: 6000 });
  const quiet = await resetLatencies('quiet');
  console.log(
    `reset mail, no bulk send: p50 ${pct(quiet, 0.5).toFixed(0)} ms, p95 ${pct(quiet, 0.95).toFixed(0)} ms (${RESETS} resets)`,
  );

  const before = await sample();
  const sampler = setInterval(() => void sample(), 200);
  // The count the owner sees before sending, for each segment (twice: the second is as the owner
  // sees it after changing the segment back).
  const segments = [
    { kind: 'everyone' },
    { kind: 'free' },
    { kind: 'paid' },
    ...(course ? ['course', 'completed'].map((kind) => ({ kind, courseId: course._id })) : []),
  ];
  for (const segment of [...segments, ...segments]) {
    started = performance.now();
    const counted = await call('POST', '/api/admin/mail/announcements/count', { segment });
    const countMs = performance.now() - started;
    console.log(`count of ${segment.kind}: ${counted.recipients} members in ${countMs.toFixed(0)} ms`);
  }
  started = performance.now();
  const queued = await call('POST', '/api/admin/mail/announcements', {
    subject: 'Bench announcement',
    markdown: 'Hello **everyone**.',
    segment: { kind: 'everyone' },
  });
  const queueMs = performance.now() - started;
  console.log(
    `queuing the announcement to everyone: ${queueMs.toFixed(0)} ms (${queueMs < 5000 ? 'ok' : 'OVER TARGET'})`,
  );
  if (queueMs >= 5000) failed = true;

  const sendStart = performance.now();
  const bulkAtStart = bulkReceived;
  const busy = await resetLatencies('busy');
  const remaining = Number(values['send-seconds']) * 1000 - (performance.now() - sendStart);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
  const seconds = (performance.now() - sendStart) / 1000;
  const pace = ((bulkReceived - bulkAtStart) / seconds) * 60;
  clearInterval(sampler);
  const progress = await call('GET', `/api/admin/mail/announcements/${queued.id}`);
  const p95Quiet = pct(quiet, 0.95);
  const p95Busy = pct(busy, 0.95);
  const resetOk = p95Busy <= Math.max(p95Quiet * 1.1, p95Quiet + 50);
  if (!resetOk) failed = true;
  console.log(
    `reset mail, during the bulk send: p50 ${pct(busy, 0.5).toFixed(0)} ms, p95 ${p95Busy.toFixed(0)} ms (${resetOk ? 'ok' : 'OVER TARGET'})`,
  );
  console.log(
    `bulk send: ${bulkReceived - bulkAtStart} messages in ${seconds.toFixed(1)} s = ${pace.toFixed(0)}/min (asked 6000/min); progress sent ${progress.sent}, queued ${progress.queued}`,
  );
  const duplicates = [...messageIds.values()].filter((n) => n > 1).length;
  if (duplicates > 0) failed = true;
  console.log(`duplicates by Message-ID: ${duplicates}`);
  console.log(
    `server processes' memory: ${before.toFixed(0)} MB before queuing, peak ${peakMb.toFixed(0)} MB after; each process's peak: ${[...peakOf.values()].map((mb) => `${mb.toFixed(0)} MB`).join(', ')} (supervisor first)`,
  );
} finally {
  await product.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  if (!values['data-dir']) await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
