import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { writeSavedSettings } from '../../server/src/settings/app-server-file';
import { startStripeStandIn } from '../../server/src/test/stripe-stand-in';
import {
  ADMIN,
  E2E_BASE_URL,
  E2E_DATA_DIR,
  E2E_DIR,
  E2E_MAIL_DIR,
  E2E_PORT,
  E2E_RATE_LIMIT_MAX,
} from './env';

/**
 * Starts what the browser tests talk to: a real SMTP server that files each message it
 * receives as JSON under E2E_MAIL_DIR, and the real app through `npm start`'s own script (its
 * supervisor, so that a restart from the console is the real one) on a fresh DATA_DIR, sending
 * its mail to that SMTP server. The client is already built (test:e2e builds it first).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await rm(E2E_DIR, { recursive: true, force: true });
  await mkdir(E2E_MAIL_DIR, { recursive: true });
  await mkdir(E2E_DATA_DIR, { recursive: true });
  await writeSavedSettings(E2E_DATA_DIR, { rateLimitMax: E2E_RATE_LIMIT_MAX });

  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          received += 1;
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          const file = path.join(E2E_MAIL_DIR, `${Date.now()}-${received}.json`);
          await writeFile(
            file,
            JSON.stringify({ to, subject: mail.subject, text: mail.text, html: mail.html }),
          );
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  // Stripe's API as the site sees it; the payments spec connects Stripe in the console and back.
  const stripe = await startStripeStandIn();
  process.env.E2E_STRIPE_URL = stripe.url;

  const server: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      PUBLIC_URL: E2E_BASE_URL,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'site@e2e.test',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // Two server processes, as on a two-core machine by default: every test also checks that the site is one.
      WORKERS: '2',
      MONGODB_URI: '',
      // The Nginx spec starts the managed nginx: on loopback only, never on the machine's interfaces.
      NGINX_LISTEN_ADDRESS: '127.0.0.1',
      STRIPE_API_BASE: stripe.url,
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      STRIPE_PRICE_IDS: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(server);
  await turnWelcomeMailsOff();

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await stripe.close();
  };
}

/**
 * The welcome mails are on by default; the suite's tests read the newest mail of a member they
 * just registered (a reset link, an e-mail change), which a welcome arriving late would hide.
 */
async function turnWelcomeMailsOff(): Promise<void> {
  const login = await fetch(`${E2E_BASE_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const current = await (await fetch(`${E2E_BASE_URL}/api/admin/mail/welcome`, { headers })).json();
  const welcome = current.data as Record<'free' | 'paid', { enabled: boolean }>;
  const off = await fetch(`${E2E_BASE_URL}/api/admin/mail/welcome`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      free: { ...welcome.free, enabled: false },
      paid: { ...welcome.paid, enabled: false },
    }),
  });
  if (!off.ok) throw new Error(`Turning the welcome mails off failed: ${off.status}`);
  await fetch(`${E2E_BASE_URL}/api/auth/logout`, { method: 'POST', headers });
}

async function waitForHealth(server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`The app exited with code ${server.exitCode} during start-up`);
    try {
      if ((await fetch(`${E2E_BASE_URL}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill('SIGKILL');
  throw new Error('The app did not answer /api/health within 30 s');
}
