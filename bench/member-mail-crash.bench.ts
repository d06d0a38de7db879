// kill -9 in the middle of an announcement: `npm start` sends one to every member at the owner's
// pace; after --crash-after seconds the supervisor and its workers are killed at once (SIGKILL, as
// a power cut), started again on the same data, and the send runs to its end. Counted at the
// SMTP server (smtp-server, in this process): every member got the announcement, and copies
// received twice (same Message-ID) number at most one per open connection per crash (3).
// Usage: npx tsx bench/member-mail-crash.bench.ts [--users 20000] [--crash-after 20]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { MAIL_BENCH_ADMIN as ADMIN, mailBenchEnv } from './support/mail-bench';
import { signIn, startProduct } from './support/product';
import { seedUsers } from './support/seed-users';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '20000' },
    'crash-after': { type: 'string', default: '20' },
  },
});
const USERS = Number(values.users);
const CONNECTIONS = 3;

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-mail-crash-'));
await seedUsers(dataDir, USERS);

const byMessageId = new Map<string, number>();
const recipients = new Set<string>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        if (mail.subject === 'Crash drill') {
          byMessageId.set(mail.messageId ?? '', (byMessageId.get(mail.messageId ?? '') ?? 0) + 1);
          recipients.add(Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? ''));
        }
        callback();
      })
      .catch(callback);
  },
});
// A connection cut by the kill -9 (or a restart) is not the capture's problem.
smtp.on('error', () => undefined);
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const env = mailBenchEnv((smtp.server.address() as { port: number }).port);
const logFile = path.join(dataDir, 'server.log');

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: Record<string, number | string> }).data;
}

let exitCode = 0;
let product = await startProduct({ dataDir, logFile, env });
try {
  let token = await signIn(product.url, ADMIN);
  await api(product.url, token, 'PUT', '/api/admin/mail/settings', { perMinute: 6000 });
  const queued = await api(product.url, token, 'POST', '/api/admin/mail/announcements', {
    subject: 'Crash drill',
    markdown: 'Sent through a kill -9.',
    segment: { kind: 'everyone' },
  });
  await new Promise((resolve) => setTimeout(resolve, Number(values['crash-after']) * 1000));
  const before = recipients.size;
  await product.crash();
  console.log(`kill -9 after ${values['crash-after']} s, ${before} members had it`);
  product = await startProduct({ dataDir, logFile, env });
  token = await signIn(product.url, ADMIN);
  const started = performance.now();
  let total = 0;
  for (;;) {
    const now = await api(product.url, token, 'GET', `/api/admin/mail/announcements/${queued.id}`);
    if (now.state === 'sent') {
      total = Number(now.recipients);
      console.log(`sent: ${now.sent}, failed: ${now.failed}, of ${now.recipients}`);
      break;
    }
    if (performance.now() - started > 30 * 60_000) throw new Error('Not done within 30 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const twice = [...byMessageId.values()].filter((count) => count > 1).length;
  const everyone = total > 0 && recipients.size === total;
  const fewRepeats = twice <= CONNECTIONS;
  console.log(
    `members who got it: ${recipients.size} of ${total} (${everyone ? 'ok' : 'MISSING'}); received twice: ${twice} (${fewRepeats ? 'ok' : 'OVER'}, at most ${CONNECTIONS})`,
  );
  if (!everyone || !fewRepeats) exitCode = 1;
} finally {
  await product.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
