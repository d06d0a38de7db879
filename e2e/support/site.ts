import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { writeSavedSettings } from '../../server/src/settings/app-server-file';
import { startStripeStandIn } from '../../server/src/test/stripe-stand-in';
import { ADMIN, E2E_RATE_LIMIT_MAX, siteOf, stripeUrlVariable } from './env';

/**
 * One worker slot's site: a real SMTP server that files each message it receives as JSON in the
 * slot's mail folder, a Stripe stand-in, and the real app through `npm start`'s own script (its
 * supervisor, so that a restart from the console is the real one) on a fresh DATA_DIR, sending
 * its mail to that SMTP server. Answers how to stop all three.
 */
export async function startSite(slot: number): Promise<() => Promise<void>> {
  const site = siteOf(slot);
  await rm(site.dir, { recursive: true, force: true });
  await mkdir(site.mailDir, { recursive: true });
  await mkdir(site.dataDir, { recursive: true });
  await writeSavedSettings(site.dataDir, { rateLimitMax: E2E_RATE_LIMIT_MAX });

  const smtp = await startMailbox(site.mailDir);
  const smtpPort = (smtp.server.address() as { port: number }).port;
  // Stripe's API as the site sees it; the payments spec connects Stripe in the console and back.
  const stripe = await startStripeStandIn();
  process.env[stripeUrlVariable(slot)] = stripe.url;

  const server: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(site.port),
      HOST: '127.0.0.1',
      DATA_DIR: site.dataDir,
      PUBLIC_URL: site.baseUrl,
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
  await waitForHealth(server, site.baseUrl);
  await turnWelcomeMailsOff(site.baseUrl);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await stripe.close();
  };
}

/**
 * Files each message as `<time>-<n>.json`. It is written under another name and renamed, so
 * that waitForMail (mailbox.ts), which reads the folder meanwhile, never reads half a message.
 */
async function startMailbox(folder: string): Promise<SMTPServer> {
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          received += 1;
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          const file = path.join(folder, `${Date.now()}-${received}.json`);
          const json = JSON.stringify({ to, subject: mail.subject, text: mail.text, html: mail.html });
          await writeFile(`${file}.part`, json);
          await rename(`${file}.part`, file);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return smtp;
}

/**
 * The welcome mails are on by default; the suite's tests read the newest mail of a member they
 * just registered (a reset link, an e-mail change), which a welcome arriving late would hide.
 */
async function turnWelcomeMailsOff(baseUrl: string): Promise<void> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const current = await (await fetch(`${baseUrl}/api/admin/mail/welcome`, { headers })).json();
  const welcome = current.data as Record<'free' | 'paid', { enabled: boolean }>;
  const off = await fetch(`${baseUrl}/api/admin/mail/welcome`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      free: { ...welcome.free, enabled: false },
      paid: { ...welcome.paid, enabled: false },
    }),
  });
  if (!off.ok) throw new Error(`Turning the welcome mails off failed: ${off.status}`);
  await fetch(`${baseUrl}/api/auth/logout`, { method: 'POST', headers });
}

async function waitForHealth(server: ChildProcess, baseUrl: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`The app exited with code ${server.exitCode} during start-up`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill('SIGKILL');
  throw new Error(`The app did not answer ${baseUrl}/api/health within 30 s`);
}
