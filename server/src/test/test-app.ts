import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { type AppDeps, buildApp } from '../app';
import { MailSettingsRepository } from '../features/mail/mail-settings.repository';
import { hashPassword } from '../features/users/passwords';
import type { UserDoc } from '../features/users/users.repository';
import { loadConfig } from '../settings/config';
import { openEmbeddedStore } from '../store/sqlite/store';
import type { Store } from '../store/store';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app in its own temporary DATA_DIR, on a fresh embedded store there unless
 * `openStore` gives another (a real MongoDB).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  {
    openStore = openEmbeddedStore,
    welcomeMails = false,
    ...options
  }: Pick<
    AppDeps,
    'authLimits' | 'databaseTargets' | 'requestRestart' | 'logger' | 'requestTimeouts' | 'mailRetryDelaysMs'
  > & {
    openStore?: (dataDir: string) => Promise<Store>;
    /** On in the product; off here unless asked, so a test's first mail in the outbox is its own. */
    welcomeMails?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'members-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const store = await openStore(dataDir);
  if (!welcomeMails) await turnWelcomeMailsOff(store);
  const app = await buildApp({ config, store, ...options });
  await app.ready();
  return {
    app,
    store,
    dataDir,
    async close() {
      await app.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function turnWelcomeMailsOff(store: Store): Promise<void> {
  const settings = new MailSettingsRepository(store);
  await settings.init();
  const { free, paid } = await settings.welcome();
  await settings.saveWelcome({ free: { ...free, enabled: false }, paid: { ...paid, enabled: false } });
}

let adminCounter = 0;

/** Puts a user straight into the store (faster than the API) and signs them in. */
export async function createUser(
  t: TestApp,
  fields: Partial<Pick<UserDoc, 'name' | 'email' | 'role' | 'membershipTier' | 'status'>> & {
    password?: string;
  } = {},
): Promise<{ user: UserDoc; token: string; password: string }> {
  adminCounter += 1;
  const password = fields.password ?? 'correct-horse';
  const user = await t.store.collection<UserDoc>('users').insertOne({
    name: fields.name ?? `Person ${adminCounter}`,
    email: fields.email ?? `person${adminCounter}-${Date.now()}@example.com`,
    password: await hashPassword(password),
    role: fields.role ?? 'user',
    membershipTier: fields.membershipTier ?? 'free',
    status: 'active',
  });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password },
  });
  const token = login.json().token as string;
  if (fields.status && fields.status !== 'active') {
    await t.store.collection<UserDoc>('users').updateById(user._id, { status: fields.status });
  }
  return { user, token, password };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** Waits for the outbox to hold `count` messages and returns them parsed, oldest first. */
export async function readOutbox(dataDir: string, count = 1, timeoutMs = 5000): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    if (files.length >= count) {
      return Promise.all(
        files.map(async (file) => {
          const mail = await simpleParser(await readFile(path.join(dir, file)));
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          return { to, subject: mail.subject ?? '', text: mail.text ?? '' };
        }),
      );
    }
    if (Date.now() > deadline)
      throw new Error(`Expected ${count} message(s) in the outbox, found ${files.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The bearer token plus a fresh password-confirmation proof (X-Reauth), as the console sends
 * them on a change that can take the site.
 */
export async function confirmed(
  t: TestApp,
  token: string,
  password = 'correct-horse',
): Promise<Record<string, string>> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reauth',
    headers: bearer(token),
    payload: { password },
  });
  if (response.statusCode !== 200) throw new Error(`reauth failed: ${response.body}`);
  return { ...bearer(token), 'x-reauth': response.json().proof };
}

/** Saves Node.js panel settings as an administrator (password confirmed), as the console does. */
export async function saveAppServerSettings(
  t: TestApp,
  adminToken: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/nodejs/config',
    headers: await confirmed(t, adminToken),
    payload,
  });
  if (response.statusCode !== 200) throw new Error(`saving settings failed: ${response.body}`);
  return response.json();
}
