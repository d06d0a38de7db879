import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmPassword, signIn } from '../../../../bench/support/product';
import { startTwoInstances, type TwoInstances } from '../../../../bench/support/two-instances';
import { ferretDbForFile } from '../../test/ferretdb';
import { fixtures, multipart } from '../../test/media-fixtures';
import { nginxForTests } from '../../test/real-nginx';
import { readOutbox } from '../../test/test-app';

/**
 * Two machines serving one site (docs/processes.md, "Several machines"): two `npm start` instances, each
 * with its own DATA_DIR and port, on one MongoDB, one media folder and one JWT_SECRET, behind the
 * nginx that instance A manages, with both addresses as its proxy targets. Runs on FerretDB, a
 * real server (test/ferretdb.ts), and on MongoDB itself wherever MONGODB_URI is set.
 */
const nginxBinary = await nginxForTests();
const ferret = ferretDbForFile();
const ADMIN = { email: 'owner@example.com', password: 'owner-password-1' };
/** Every instance of one site is given the same secret (docs/processes.md, "Several machines"). */
const JWT_SECRET = 'two-instances-test-secret-0123456789abcdefghijkl';

interface Database {
  uri: string;
  close(): Promise<void>;
}

/** A fresh database on the file's FerretDB (stopped with the file). */
async function onFerretDb(): Promise<Database> {
  return { uri: ferret!.freshUri('members'), close: async () => {} };
}

/** A fresh database on the real server named by MONGODB_URI. */
async function realMongo(uri: string): Promise<Database> {
  const url = new URL(uri);
  url.pathname = `/two_instances_${Date.now()}`;
  return { uri: url.toString(), close: async () => {} };
}

async function call(
  url: string,
  method: string,
  pathname: string,
  options: { token?: string; proof?: string; body?: unknown } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.proof) headers['x-reauth'] = options.proof;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: response.status, json };
}

/**
 * GETs through nginx from `workers` loops until `during` has run, then counts the answers that
 * were not 200 (a refused connection counts as one).
 */
async function stream(url: string, during: () => Promise<void>, workers = 6) {
  let running = true;
  let sent = 0;
  const failures: string[] = [];
  const loop = async () => {
    while (running) {
      sent += 1;
      try {
        const response = await fetch(`${url}/api/slider/public`);
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`HTTP ${response.status}`);
      } catch (error) {
        failures.push(String((error as Error).cause ?? error));
      }
    }
  };
  const loops = Array.from({ length: workers }, loop);
  try {
    await during();
  } finally {
    running = false;
    await Promise.all(loops);
  }
  return { sent, failures };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function twoInstances(label: string, open: (() => Promise<Database>) | null, skipped?: string) {
  describe.skipIf(!nginxBinary || !open)(label, () => {
    let database: Database | undefined;
    let site: TwoInstances;

    beforeAll(async () => {
      if (!open) return;
      database = await open();
      site = await startTwoInstances({
        mongoUri: database.uri,
        admin: ADMIN,
        jwtSecret: JWT_SECRET,
        // The general API limit stays out of the way; the sign-in limits are what is counted here.
        env: { RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' },
      });
    }, 300_000);

    afterAll(async () => {
      const left = await site?.stop();
      await database?.close();
      expect(left ?? []).toEqual([]);
    }, 60_000);

    it('a member who registers through one instance signs in through the other', async () => {
      const member = { name: 'Ada', email: 'ada@example.com', password: 'ada-password-1' };
      const registered = await call(site.a.url, 'POST', '/api/auth/register', { body: member });
      expect(registered.status, JSON.stringify(registered.json)).toBe(201);
      const token = await signIn(site.b.url, member);
      expect(token).toMatch(/^ey/);
    });

    it('a password-reset link mailed by one instance works on the other', async () => {
      const member = { name: 'Grace', email: 'grace@example.com', password: 'grace-password-1' };
      expect((await call(site.a.url, 'POST', '/api/auth/register', { body: member })).status).toBe(201);
      const asked = await call(site.a.url, 'POST', '/api/auth/forgot-password', {
        body: { email: member.email },
      });
      expect(asked.status).toBe(200);
      // A mails it (to its own outbox: no SMTP_URL here); the link's token lives only as a hash in the store.
      let link: RegExpExecArray | null = null;
      for (let count = 1; !link; count += 1) {
        const mails = await readOutbox(site.dataDirs.a, count, 15_000);
        const mail = mails.find((m) => m.to.includes(member.email) && /reset-password\//.test(m.text));
        link = mail ? /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text) : null;
      }
      const password = 'grace-new-password-1';
      const reset = await call(site.b.url, 'PUT', `/api/auth/reset-password/${link[1]}`, {
        body: { password },
      });
      expect(reset.status, JSON.stringify(reset.json)).toBe(200);
      expect(await signIn(site.b.url, { email: member.email, password })).toMatch(/^ey/);
    });

    it('a sign-in made on one instance is honoured by both, and ends on both', async () => {
      const token = await signIn(site.a.url, ADMIN);
      for (const url of [site.a.url, site.b.url, site.nginx]) {
        const me = await call(url, 'GET', '/api/auth/me', { token });
        expect(me.status, `${url}: ${JSON.stringify(me.json)}`).toBe(200);
      }
      expect((await call(site.b.url, 'POST', '/api/auth/logout', { token })).status).toBe(200);
      expect((await call(site.a.url, 'GET', '/api/auth/me', { token })).status).toBe(401);
    });

    it('the Nginx panel, opened through nginx, always talks to the instance that drives it', async () => {
      const token = await signIn(site.nginx, ADMIN);
      for (let i = 0; i < 4; i += 1) {
        const config = await call(site.nginx, 'GET', '/api/system/config', { token });
        expect((config.json.data as { proxyPass: string }).proxyPass).toBe(`${site.a.url} ${site.b.url}`);
        const status = await call(site.nginx, 'GET', '/api/system/status', { token });
        expect(status.json).toMatchObject({ running: true });
      }
    });

    it('a file uploaded through one instance is served by the other', async () => {
      const proof = await confirmPassword(site.a.url, site.admin, ADMIN.password);
      const form = multipart({ mediaType: 'image', basePath: site.mediaDir }, [
        { name: 'shared.png', content: fixtures.png(), type: 'image/png' },
      ]);
      const upload = await fetch(`${site.a.url}/api/media/upload`, {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${site.admin}`, 'x-reauth': proof },
        body: new Uint8Array(form.payload),
      });
      expect(upload.status, await upload.clone().text()).toBe(200);
      const served = await fetch(`${site.b.url}/media/image/shared.png`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(fixtures.png());
    });

    it('counts wrong passwords spread over both instances as one instance counts them', async () => {
      const accounts = ['alone@example.com', 'spread@example.com'];
      for (const email of accounts) {
        const body = { name: 'Guessed', email, password: 'right-password-1' };
        expect((await call(site.a.url, 'POST', '/api/auth/register', { body })).status).toBe(201);
      }
      const tries = async (email: string, urls: string[]) => {
        const statuses: number[] = [];
        for (let i = 0; i < 30; i += 1) {
          const url = urls[i % urls.length] as string;
          const body = { email, password: `wrong-password-${i}` };
          statuses.push((await call(url, 'POST', '/api/auth/login', { body })).status);
        }
        return statuses;
      };
      const onOne = await tries('alone@example.com', [site.a.url]);
      const overBoth = await tries('spread@example.com', [site.a.url, site.b.url]);
      expect(onOne.indexOf(429)).toBeGreaterThan(0);
      expect(overBoth).toEqual(onOne);
    });

    it('serves a slideshow change made on one instance from the other within 1 s', async () => {
      const before = await call(site.b.url, 'GET', '/api/slider/public');
      expect(before.status).toBe(200);
      const proof = await confirmPassword(site.a.url, site.admin, ADMIN.password);
      const config = (await call(site.a.url, 'GET', '/api/slider/config', { token: site.admin })).json
        .data as Record<string, unknown>;
      const cycleTime = config.cycleTime === 12_345 ? 23_456 : 12_345;
      const saved = await call(site.a.url, 'PUT', '/api/slider/config', {
        token: site.admin,
        proof,
        body: { ...config, cycleTime },
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      await pause(1000);
      const after = await call(site.b.url, 'GET', '/api/slider/public');
      expect(JSON.stringify(after.json)).toContain(`"cycleTime":${cycleTime}`);
    });

    it('two administrators demoting each other at once through the two instances leave one (the lease)', async () => {
      const second = { name: 'Second', email: 'second-admin@example.com', password: 'second-password-1' };
      const registered = await call(site.a.url, 'POST', '/api/auth/register', { body: second });
      expect(registered.status, JSON.stringify(registered.json)).toBe(201);
      const idOf = async (token: string) =>
        ((await call(site.a.url, 'GET', '/api/auth/me', { token })).json.data as { _id: string })._id;
      const secondId = await idOf(registered.json.token as string);
      const ownerId = await idOf(site.admin);
      // Every password check from this address counts against its sign-in budget: each session
      // is signed in again only once its owner was demoted (a demotion ends their sessions).
      const sessionOf = async (url: string, who: { email: string; password: string }) => {
        const token = await signIn(url, who);
        return { url, token, proof: await confirmPassword(url, token, who.password) };
      };
      type Session = Awaited<ReturnType<typeof sessionOf>>;
      const setRole = (by: Session, id: string, role: string) =>
        call(by.url, 'PUT', `/api/admin/users/${id}`, { token: by.token, proof: by.proof, body: { role } });
      const owner = await sessionOf(site.a.url, ADMIN);
      expect((await setRole(owner, secondId, 'admin')).status).toBe(200);
      const sessions = { owner, second: await sessionOf(site.b.url, second) };
      for (let round = 0; round < 3; round += 1) {
        const answers = await Promise.all([
          setRole(sessions.owner, secondId, 'user'),
          setRole(sessions.second, ownerId, 'user'),
        ]);
        const statuses = answers.map((answer) => answer.status);
        // One demotion goes through; the other is refused (409: the last administrator, or 401/403:
        // its author was demoted first). Never both: that would leave the site without one.
        expect(
          statuses.filter((status) => status === 200),
          `round ${round}: ${statuses}`,
        ).toHaveLength(1);
        if (statuses[0] === 200) {
          expect((await setRole(sessions.owner, secondId, 'admin')).status).toBe(200);
          sessions.second = await sessionOf(site.b.url, second);
        } else {
          expect((await setRole(sessions.second, ownerId, 'admin')).status).toBe(200);
          sessions.owner = await sessionOf(site.a.url, ADMIN);
        }
      }
    });

    it('loses no request through nginx while one instance stops (SIGTERM) or dies (SIGKILL)', async () => {
      const stopped = await stream(site.nginx, async () => {
        await pause(500);
        await site.b.stop();
        await pause(1000);
      });
      expect(stopped.failures).toEqual([]);
      expect(stopped.sent).toBeGreaterThan(50);

      // B comes back; a reload of nginx (the panel's Restart) sends it its share again at once.
      await site.restartB();
      await site.reloadNginx();

      const killed = await stream(site.nginx, async () => {
        await pause(500);
        await site.b.crash();
        await pause(1000);
      });
      expect(killed.failures).toEqual([]);
      expect(killed.sent).toBeGreaterThan(50);
    }, 120_000);
  });
  if (skipped) {
    describe(label, () => {
      it.skip(skipped, () => {});
    });
  }
}

twoInstances('two npm start instances on FerretDB behind nginx', ferret ? onFerretDb : null);

const realUri = process.env.MONGODB_URI;
twoInstances(
  'two npm start instances on a real MongoDB behind nginx',
  realUri ? () => realMongo(realUri) : null,
  realUri ? undefined : 'runs only where MONGODB_URI is set (a fresh database on that server)',
);
