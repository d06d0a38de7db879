import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { exited, type SpawnedServer, spawnServer } from '../../test/spawn-server';
import { startSupervisedSite } from '../../test/supervised-site';
import { DEFAULT_AUTH_LIMITS } from '../auth/sign-in-limiter';

/**
 * Issue 19.3, one site whatever the number of processes: real server processes on one store,
 * each case run on two sites: `npm start`'s supervisor with WORKERS=2 on the embedded store
 * (each new connection goes to the next worker), and two servers on one MongoDB (the stand-in,
 * over the wire) sharing one DATA_DIR, each called by itself.
 */
const ADMIN = { email: 'owner@example.com', password: 'owner-password-1' };
const ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  JWT_SECRET: 'one-site-tests-secret-0123456789abcdef0123',
  LOG_LEVEL: 'warn',
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are the API's, read field by field
  json: () => any;
}

/** One request on a connection of its own (never a kept-alive one), to `base`. */
function call(
  base: string,
  method: string,
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${url}`,
      {
        method,
        agent: false,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            json: () => JSON.parse(text),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A site of two server processes on one store, sharing one DATA_DIR (with the media in it). */
interface Site {
  /** The base address that reaches process `i`, or the next process in turn (each call has a connection of its own). */
  on(i: number): string;
  stop(): Promise<void>;
}

/** Two servers on one MongoDB (the stand-in, over the wire), each addressed by itself. */
async function twoServersOnMongo(dataDir: string): Promise<Site> {
  const standIn: MongoStandIn = await startMongoStandIn();
  const env = { ...ENV, DATA_DIR: dataDir, MONGODB_URI: standIn.uri('site') };
  // One after the other: the first creates the owner's account, the second finds it.
  const servers: SpawnedServer[] = [await spawnServer(env)];
  servers.push(await spawnServer(env));
  return {
    on: (i) => servers[i % servers.length]!.url,
    async stop() {
      for (const server of servers) {
        server.process.kill('SIGTERM');
        await exited(server.process);
      }
      await standIn.close();
    },
  };
}

/** `npm start`'s supervisor with two workers on the embedded store; connections alternate between them. */
async function twoWorkersOnSqlite(dataDir: string): Promise<Site> {
  const site = await startSupervisedSite({ ...ENV, DATA_DIR: dataDir }, { workers: 2 });
  return {
    on: () => site.url,
    async stop() {
      await site.stop();
    },
  };
}

const SITES: Array<[string, (dataDir: string) => Promise<Site>]> = [
  ['npm start with WORKERS=2 on SQLite', twoWorkersOnSqlite],
  ['two servers on one MongoDB', twoServersOnMongo],
];

describe.each(SITES)('one site on two server processes (19.3): %s', (_label, startSite) => {
  let dataDir = '';
  let site: Site;
  const on = (i: number) => site.on(i);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'one-site-'));
    await mkdir(path.join(dataDir, 'media', 'image'), { recursive: true });
    for (const name of ['one.png', 'two.png'])
      await writeFile(path.join(dataDir, 'media', 'image', name), 'x');
    site = await startSite(dataDir);
  }, 120_000);

  afterAll(async () => {
    await site?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signIn(i: number, who: { email: string; password: string }): Promise<string> {
    const answer = await call(on(i), 'POST', '/api/auth/login', { body: who });
    expect(answer.status).toBe(200);
    return answer.json().token;
  }

  /** A fresh password confirmation, for changes that can take the site. */
  async function confirmed(i: number, token: string, password: string): Promise<Record<string, string>> {
    const answer = await call(on(i), 'POST', '/api/auth/reauth', { token, body: { password } });
    expect(answer.status).toBe(200);
    return { 'x-reauth': answer.json().proof };
  }

  /** The public slides as process `i` and the next one serve them. */
  async function publicSlides(i: number) {
    const [first, next] = [
      await call(on(i), 'GET', '/api/slider/public'),
      await call(on(i + 1), 'GET', '/api/slider/public'),
    ];
    expect(next.json().data).toEqual(first.json().data);
    return first.json().data;
  }

  it('refuses wrong passwords spread over the processes at exactly the count one process refuses them', async () => {
    // From an address of its own (nginx's loopback hop is trusted), so the other tests keep theirs.
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await call(on(i), 'POST', '/api/auth/login', {
        headers,
        body: { email: ADMIN.email, password: `wrong-password-${i}` },
      });
      statuses.push(answer.status);
    }
    // One process refuses from the 11th try on (10 per account and address): so do two.
    const allowed = DEFAULT_AUTH_LIMITS.perAccountPerClient;
    expect(statuses).toEqual([...Array(allowed).fill(400), ...Array(30 - allowed).fill(429)]);
    // Even the right password, through either process, until the window ends.
    expect((await call(on(0), 'POST', '/api/auth/login', { headers, body: ADMIN })).status).toBe(429);
    expect((await call(on(1), 'POST', '/api/auth/login', { headers, body: ADMIN })).status).toBe(429);
  });

  it('serves a slideshow, playlist or setting change made through one process from the other within a second', async () => {
    const token = await signIn(0, ADMIN);

    // The slideshow's settings.
    const config = (await call(on(0), 'GET', '/api/slider/config', { token })).json().data;
    expect((await publicSlides(1)).config.cycleTime).toBe(config.cycleTime);
    const saved = await call(on(0), 'PUT', '/api/slider/config', {
      token,
      body: { ...config, cycleTime: config.cycleTime + 1000 },
    });
    expect(saved.status).toBe(200);
    await sleep(1000);
    expect((await publicSlides(1)).config.cycleTime).toBe(config.cycleTime + 1000);

    // A playlist: made active through one process, then changed through the other.
    const created = await call(on(1), 'POST', '/api/playlists', {
      token,
      body: {
        name: 'Shared',
        items: [{ type: 'image', url: '/media/image/one.png' }],
        images: [],
        videos: [],
      },
    });
    expect(created.status).toBe(201);
    const playlist = created.json().data;
    const activated = await call(on(1), 'PUT', '/api/slider/config', {
      token,
      body: { ...config, activePlaylist: playlist._id },
    });
    expect(activated.status).toBe(200);
    await sleep(1000);
    expect((await publicSlides(0)).slides.map((s: { src: string }) => s.src)).toEqual([
      '/media/image/one.png',
    ]);
    const changed = await call(on(1), 'PUT', `/api/playlists/${playlist._id}`, {
      token,
      body: {
        items: [
          { type: 'image', url: '/media/image/two.png' },
          { type: 'image', url: '/media/image/one.png' },
        ],
        images: [],
        videos: [],
      },
    });
    expect(changed.status).toBe(200);
    await sleep(1000);
    expect((await publicSlides(0)).slides.map((s: { src: string }) => s.src)).toEqual([
      '/media/image/two.png',
      '/media/image/one.png',
    ]);

    // A live setting of the Node.js panel: the CORS origin.
    const origin = 'https://shop.example';
    const before = await call(on(1), 'GET', '/api/slider/public', { headers: { origin } });
    expect(before.headers['access-control-allow-origin']).toBe('*');
    const setting = await call(on(0), 'POST', '/api/admin/nodejs/config', {
      token,
      headers: await confirmed(0, token, ADMIN.password),
      body: { corsOrigin: origin },
    });
    expect(setting.status).toBe(200);
    await sleep(1000);
    for (const i of [1, 2]) {
      const other = await call(on(i), 'GET', '/api/slider/public', {
        headers: { origin: 'https://other.example' },
      });
      expect(other.headers['access-control-allow-origin'], `process ${i}`).toBeUndefined();
    }
    for (const i of [1, 2]) {
      const allowed = await call(on(i), 'GET', '/api/slider/public', { headers: { origin } });
      expect(allowed.headers['access-control-allow-origin'], `process ${i}`).toBe(origin);
    }
  });

  it('keeps the settings saved through either process, for every process after the next start', async () => {
    const token = await signIn(1, ADMIN);
    // Each process saves one field; neither writes back an older copy of the file over the other's.
    const first = await call(on(1), 'POST', '/api/admin/nodejs/config', {
      token,
      headers: await confirmed(1, token, ADMIN.password),
      body: { rateLimitMax: 4321 },
    });
    expect(first.status).toBe(200);
    const second = await call(on(0), 'POST', '/api/admin/nodejs/config', {
      token,
      headers: await confirmed(0, token, ADMIN.password),
      body: { maxRequestSize: '2mb' },
    });
    expect(second.status).toBe(200);
    const saved = JSON.parse(await readFile(path.join(dataDir, 'app-server.json'), 'utf8'));
    expect(saved).toMatchObject({ rateLimitMax: 4321, maxRequestSize: '2mb' });
    for (const i of [0, 1]) {
      const view = (await call(on(i), 'GET', '/api/admin/nodejs/config', { token })).json().config;
      expect(view, `process ${i}`).toMatchObject({ rateLimitMax: 4321, maxRequestSize: '2mb' });
    }
  });

  it('keeps one administrator when two demote each other at the same moment through different processes', async () => {
    const owner = await signIn(0, { ...ADMIN });
    const second = { name: 'Second Owner', email: 'second@example.com', password: 'second-password-1' };
    const ownerProof = await confirmed(0, owner, ADMIN.password);
    const made = await call(on(0), 'POST', '/api/admin/users', {
      token: owner,
      headers: ownerProof,
      body: { ...second, role: 'admin', membershipTier: 'paid' },
    });
    expect(made.status).toBe(201);
    const secondId: string = made.json().data._id;
    const secondToken = await signIn(1, second);
    const ownerId: string = (await call(on(0), 'GET', '/api/auth/me', { token: owner })).json().data._id;
    const secondProof = await confirmed(1, secondToken, second.password);

    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all([
        call(on(0), 'PUT', `/api/admin/users/${secondId}`, {
          token: owner,
          headers: ownerProof,
          body: { role: 'user' },
        }),
        call(on(1), 'PUT', `/api/admin/users/${ownerId}`, {
          token: secondToken,
          headers: secondProof,
          body: { role: 'user' },
        }),
      ]);
      // One change goes through; the other is refused, as the last administrator (409) or, when
      // it arrives after the first was saved, as no longer an administrator (403).
      expect(
        [a.status, b.status].filter((status) => status === 200),
        `round ${round}`,
      ).toHaveLength(1);
      expect([403, 409], `round ${round}`).toContain(a.status === 200 ? b.status : a.status);
      const [keeper, keeperProof, demoted] =
        a.status === 200 ? [owner, ownerProof, secondId] : [secondToken, secondProof, ownerId];
      const kept = (await call(on(round), 'GET', '/api/auth/me', { token: keeper })).json().data;
      expect(kept.role, `round ${round}`).toBe('admin');
      // The one left an administrator promotes the other back for the next round.
      const back = await call(on(round), 'PUT', `/api/admin/users/${demoted}`, {
        token: keeper,
        headers: keeperProof,
        body: { role: 'admin' },
      });
      expect(back.status, `round ${round}`).toBe(200);
    }
  });
});
