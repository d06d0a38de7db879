import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { startSilentPeer, startSmtpPeer } from '../test/smtp-peer';
import { exited } from '../test/spawn-server';
import { SUPERVISOR_ARGS } from '../test/supervised-site';

/**
 * Drill: a console restart (the supervisor swaps server processes) while a reset mail is being
 * sent to a mail server that does not answer. The mail is not lost, is sent by one process only
 * (exactly once), and its link works.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'owner@example.com', password: 'owner-password' };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const call = (base: string, method: string, url: string, body?: unknown, token?: string) =>
  fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('mail drill: a console restart with a mail in flight', () => {
  it('hands the mail over: sent once, by one process, with a working link', async () => {
    const silent = await startSilentPeer();
    cleanups.push(() => silent.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mail-console-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    let output = '';
    const supervisor: ChildProcess = spawn(process.execPath, SUPERVISOR_ARGS, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SMTP_URL: `smtp://127.0.0.1:${silent.port}`,
        PUBLIC_URL: 'https://members.example.com',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    supervisor.stdout?.on('data', (chunk) => (output += chunk));
    supervisor.stderr?.on('data', (chunk) => (output += chunk));
    cleanups.push(async () => {
      if (supervisor.exitCode === null) process.kill(-supervisor.pid!, 'SIGKILL');
      await exited(supervisor);
    });
    const base = `http://127.0.0.1:${port}`;
    await until('the first start', async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined));
    const token = ((await (await call(base, 'POST', '/api/auth/login', ADMIN)).json()) as { token: string })
      .token;

    expect((await call(base, 'POST', '/api/auth/forgot-password', { email: ADMIN.email })).status).toBe(200);
    await until('the mail to be in flight', async () => {
      const claims = await readdir(path.join(dataDir, 'mail', 'sending'));
      return claims.length === 1 && silent.connections() > 0 ? true : undefined;
    });
    // A restart needs the password typed again (the console's dialog does this).
    const { proof } = (await (
      await call(base, 'POST', '/api/auth/reauth', { password: ADMIN.password }, token)
    ).json()) as { proof: string };
    const restart = await fetch(`${base}/api/admin/nodejs/restart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-reauth': proof },
    });
    expect(restart.status).toBe(200);
    // The mail server comes back while the processes change places.
    await silent.close();
    const smtp = await startSmtpPeer(silent.port);
    cleanups.push(() => smtp.close());

    const mail = await smtp.waitFor(ADMIN.email, 45_000);
    const link = /\/reset-password\/([A-Za-z0-9_-]{43,})/.exec(mail.text)?.[1];
    const done = await call(base, 'PUT', `/api/auth/reset-password/${link}`, {
      password: 'brand-new-password',
    });
    expect(done.status).toBe(200);
    // Give a second sender, if there were one, the time to show itself.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(smtp.received).toHaveLength(1);
    expect(output).not.toMatch(/reset-password\//);
    // The reset ended the owner's older sessions: sign in with the new password.
    const fresh = (
      (await (
        await call(base, 'POST', '/api/auth/login', { email: ADMIN.email, password: 'brand-new-password' })
      ).json()) as { token: string }
    ).token;
    const status = await call(base, 'GET', '/api/admin/mail', undefined, fresh);
    expect(((await status.json()) as { data: { sentToday: number; waiting: number } }).data).toMatchObject({
      sentToday: 1,
      waiting: 0,
    });
  }, 90_000);
});
