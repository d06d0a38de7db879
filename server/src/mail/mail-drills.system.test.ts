import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FORGOT_PASSWORD_MESSAGE } from '@common/schemas/auth';
import type { MailStatusResponse } from '@common/schemas/mail';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../settings/config';
import { openEmbeddedStore } from '../store/sqlite/store';
import { freePort } from '../test/free-port';
import { startSilentPeer, startSmtpPeer } from '../test/smtp-peer';
import { exited, spawnServer } from '../test/spawn-server';
import { bearer, createTestApp, createUser, readOutbox, type TestApp } from '../test/test-app';
import { canMount, fillDisk, mountTmpfs } from '../test/tmpfs';
import { createMailer } from './mailer';

// Fault drills of the mail queue against a real SMTP server (smtp-server), a real silent peer,
// real server processes and a real full disk (tmpfs).

const PUBLIC_URL = 'https://members.example.com';
const tokenIn = (text: string) => /\/reset-password\/([A-Za-z0-9_-]{43,})/.exec(text)?.[1] ?? '';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function appWithSmtp(port: number): Promise<TestApp> {
  const t = await createTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL },
    { mailRetryDelaysMs: [300] },
  );
  cleanups.push(() => t.close());
  return t;
}

const forgot = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const reset = (t: TestApp, token: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/auth/reset-password/${token}`,
    payload: { password: 'brand-new-password' },
  });

async function mailStatus(t: TestApp, admin: string): Promise<MailStatusResponse['data']> {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/mail', headers: bearer(admin) });
  expect(response.statusCode).toBe(200);
  return (response.json() as MailStatusResponse).data;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Both answers must be the same: nothing in them tells whether the account exists. */
async function expectSameAnswers(t: TestApp, known: string) {
  const a = await forgot(t, known);
  const b = await forgot(t, 'nobody-here@example.com');
  expect(a.statusCode).toBe(200);
  expect(b.statusCode).toBe(200);
  expect(a.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
  expect(b.body).toBe(a.body);
}

describe('mail drills: the SMTP server fails', () => {
  it('keeps a reset mail while SMTP refuses connections and sends it, link still valid, once SMTP is back', async () => {
    const port = await freePort(); // nothing listens: connections are refused
    const t = await appWithSmtp(port);
    const { token: admin } = await createUser(t, { role: 'admin' });
    await createUser(t, { email: 'refused@example.com' });
    await expectSameAnswers(t, 'refused@example.com');

    // Read between two tries: during a try (on a busy machine a long moment) the mail shows as sending.
    const waiting = await until('the refused attempt', async () => {
      const status = await mailStatus(t, admin);
      return status.lastError && status.messages[0]?.state === 'waiting' ? status : undefined;
    });
    expect(waiting).toMatchObject({ mode: 'smtp', waiting: 1, failed: 0, sentToday: 0 });
    expect(waiting.lastError?.message).toMatch(/refused the connection/);
    expect(waiting.messages[0]).toMatchObject({ to: 'refused@example.com', state: 'waiting' });
    expect(waiting.messages[0]!.attempts).toBeGreaterThanOrEqual(1);
    // The console never sees the link or its token.
    expect(JSON.stringify(waiting)).not.toMatch(/reset-password\//);

    const smtp = await startSmtpPeer(port);
    cleanups.push(() => smtp.close());
    const mail = await smtp.waitFor('refused@example.com');
    expect(smtp.received).toHaveLength(1);
    expect((await reset(t, tokenIn(mail.text))).statusCode).toBe(200);
    const after = await until('the sent count', async () => {
      const status = await mailStatus(t, admin);
      return status.sentToday === 1 ? status : undefined;
    });
    expect(after).toMatchObject({ waiting: 0, failed: 0, sentToday: 1 });
  });

  it('gives up on a silent SMTP server within seconds, keeps the mail, and "retry now" sends it', async () => {
    const silent = await startSilentPeer();
    cleanups.push(() => silent.close());
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${silent.port}`, PUBLIC_URL },
      // The next attempt would be far away: only "retry now" brings it forward.
      { mailRetryDelaysMs: [10 * 60_000] },
    );
    cleanups.push(() => t.close());
    const { token: admin } = await createUser(t, { role: 'admin' });
    await createUser(t, { email: 'silent@example.com' });
    await expectSameAnswers(t, 'silent@example.com');

    // nodemailer's own greeting timeout is 30 s; the queue's is 5 s.
    const stuck = await until(
      'the silent attempt to time out',
      async () => {
        const status = await mailStatus(t, admin);
        return status.lastError ? status : undefined;
      },
      12_000,
    );
    expect(silent.connections()).toBeGreaterThanOrEqual(1);
    expect(stuck.lastError?.message).toMatch(/did not answer in time/);
    const [message] = stuck.messages;
    expect(message).toMatchObject({ state: 'waiting', attempts: 1 });

    await silent.close();
    const smtp = await startSmtpPeer(silent.port);
    cleanups.push(() => smtp.close());
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/admin/mail/${message!.id}/retry`,
      headers: bearer(admin),
    });
    expect(retry.statusCode).toBe(200);
    const mail = await smtp.waitFor('silent@example.com');
    expect((await reset(t, tokenIn(mail.text))).statusCode).toBe(200);
    // A message that no longer waits cannot be retried.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/mail/${message!.id}/retry`,
      headers: bearer(admin),
    });
    expect(again.statusCode).toBe(409);
  });

  it('marks a message failed, not deleted, when its life ends before SMTP comes back', async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mail-expire-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const mailer = await createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'site@example.com',
      dataDir,
      log: Fastify({ logger: false }).log,
      retryDelaysMs: [200],
    });
    cleanups.push(() => mailer.close());
    await mailer.send({
      to: 'late@example.com',
      subject: 'Short-lived',
      text: 'A link valid for a second',
      expiresAt: new Date(Date.now() + 1000),
    });
    const status = await until('the message to fail', async () => {
      const s = await mailer.status();
      return s.failed === 1 ? s : undefined;
    });
    expect(status.waiting).toBe(0);
    expect(status.messages[0]).toMatchObject({ to: 'late@example.com', state: 'failed' });
    expect(status.messages[0]!.lastError).toMatch(/expired.*refused the connection/);
    const failed = await readdir(path.join(dataDir, 'mail', 'failed'));
    expect(failed).toHaveLength(1);
    // Owner-only: the queue holds live links while they wait.
    expect((await stat(path.join(dataDir, 'mail'))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dataDir, 'mail', 'failed', failed[0]!))).mode & 0o777).toBe(0o600);
  });
});

describe('reset links and logs', () => {
  it('never writes a reset link or its token to the log, at any level; the owner finds it in the outbox file', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { PUBLIC_URL },
      { logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } } },
    );
    cleanups.push(() => t.close());
    await createUser(t, { email: 'logged@example.com' });
    await expectSameAnswers(t, 'logged@example.com');
    const [mail] = await readOutbox(t.dataDir, 1);
    const token = tokenIn(mail!.text);
    expect(token).not.toBe('');
    await until('the outbox log line', async () =>
      lines.some((line) => line.includes('Mail written to the outbox')) ? true : undefined,
    );
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toMatch(/reset-password\//);
  });
});

describe('mail drills: a server process stops while a mail is in flight', () => {
  it('after kill -9 mid-send, the next server process sends the mail, once, with a working link', async () => {
    const silent = await startSilentPeer();
    cleanups.push(() => silent.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mail-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${silent.port}`,
      PUBLIC_URL,
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'owner-password',
    };
    const first = await spawnServer(env);
    cleanups.push(async () => first.process.kill('SIGKILL'));
    const answer = await fetch(`${first.url}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com' }),
    });
    expect(answer.status).toBe(200);
    // In flight: claimed by the first process and connected to the (silent) mail server.
    await until('the mail to be in flight', async () => {
      const claims = await readdir(path.join(dataDir, 'mail', 'sending')).catch(() => []);
      return claims.length === 1 && silent.connections() > 0 ? true : undefined;
    });
    first.process.kill('SIGKILL');
    await exited(first.process);

    await silent.close();
    const smtp = await startSmtpPeer(silent.port);
    cleanups.push(() => smtp.close());
    const second = await spawnServer(env);
    cleanups.push(async () => second.process.kill('SIGKILL'));
    const mail = await smtp.waitFor('owner@example.com', 20_000);
    const done = await fetch(`${second.url}/api/auth/reset-password/${tokenIn(mail.text)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'brand-new-password' }),
    });
    expect(done.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(1);
    expect(second.output()).not.toMatch(/reset-password\//);
  });
});

describe.skipIf(!canMount('The disk-full mail drills'))('mail drills: the disk is full', () => {
  it('outbox on a full disk: same answer for every e-mail, no empty files, the mail goes out once space is back', async () => {
    const t = await createTestApp({ PUBLIC_URL }, { mailRetryDelaysMs: [10 * 60_000] });
    cleanups.push(() => t.close());
    const outbox = path.join(t.dataDir, 'outbox');
    const unmount = await mountTmpfs(outbox, '256k');
    cleanups.push(unmount);
    const filler = await fillDisk(outbox);
    const { token: admin } = await createUser(t, { role: 'admin' });
    await createUser(t, { email: 'full@example.com' });
    await expectSameAnswers(t, 'full@example.com');

    const stuck = await until('the full-disk attempt', async () => {
      const status = await mailStatus(t, admin);
      return status.lastError ? status : undefined;
    });
    expect(stuck.mode).toBe('outbox');
    expect(stuck.lastError?.message).toMatch(/disk is full/);
    expect(stuck.waiting).toBe(1);
    // Nothing half-written is left behind: no empty .eml, no temp file.
    expect((await readdir(outbox)).filter((name) => name !== 'filler.bin')).toEqual([]);

    await rm(filler);
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/admin/mail/${stuck.messages[0]!.id}/retry`,
      headers: bearer(admin),
    });
    expect(retry.statusCode).toBe(200);
    const [mail] = await readOutbox(t.dataDir, 1);
    expect(mail!.to).toBe('full@example.com');
    expect((await reset(t, tokenIn(mail!.text))).statusCode).toBe(200);
    const files = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    expect((await stat(path.join(outbox, files[0]!))).mode & 0o777).toBe(0o600);
  });

  it('DATA_DIR itself full: the forgot-password answer is still the same for a known and an unknown e-mail, and says the disk is full', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mail-full-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const unmount = await mountTmpfs(dataDir, '4m');
    cleanups.push(unmount);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL });
    const store = await openEmbeddedStore(dataDir);
    const app = await buildApp({ config, store });
    const t: TestApp = { app, store, dataDir, close: async () => undefined };
    cleanups.push(async () => {
      await app.close();
      await store.close();
    });
    const { token: admin } = await createUser(t, { role: 'admin' });
    await createUser(t, { email: 'known@example.com' });
    await fillDisk(dataDir);
    // Counting the request against the reset limits is a write (the shared rate-limit counters),
    // so a full disk refuses it before any mail is queued: plainly, and alike for both e-mails.
    const a = await forgot(t, 'known@example.com');
    const b = await forgot(t, 'nobody-here@example.com');
    expect(a.statusCode).toBe(507);
    expect(a.json().code).toBe('STORAGE_FULL');
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body).toBe(a.body);
    expect((await mailStatus(t, admin)).sentToday).toBe(0);
  });
});
