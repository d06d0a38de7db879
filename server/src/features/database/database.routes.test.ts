import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../lib/redact';
import { freePort } from '../../test/free-port';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let member: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin', email: 'boss@example.com' })).token;
  member = (await createUser(t)).token;
  await createUser(t, { name: 'Reset Pending', email: 'reset@example.com' });
  await t.store
    .collection('users')
    .updateOne(
      { email: 'reset@example.com' },
      { resetTokenHash: 'f'.repeat(64), resetTokenExpiresAt: new Date() },
    );
  await t.store.collection('playlists').insertOne({ name: 'Morning', items: [], images: [], videos: [] });
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
/** Posts with a fresh password confirmation, as the console does for these changes. */
const post = async (url: string, payload: unknown, token = admin) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: await confirmed(t, token) });

const CALLS: Array<[string, string]> = [
  ['GET', '/api/admin/mongodb/config'],
  ['POST', '/api/admin/mongodb/config'],
  ['GET', '/api/admin/mongodb/status'],
  ['GET', '/api/admin/mongodb/databases'],
  ['GET', '/api/admin/mongodb/database/members/stats'],
  ['POST', '/api/admin/mongodb/test'],
  ['GET', '/api/admin/mongodb/database/members/details'],
  ['GET', '/api/admin/mongodb/database/members/collection/users?limit=20'],
];

describe('database panel API: who may call it', () => {
  it('answers 401 without a token and 403 to a member, for every call', async () => {
    for (const [method, url] of CALLS) {
      const anonymous = await t.app.inject({ method: method as 'GET', url, payload: {} });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const asMember = await t.app.inject({
        method: method as 'GET',
        url,
        payload: {},
        headers: bearer(member),
      });
      expect(asMember.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe('database panel API on the embedded store', () => {
  it("GET config gives the spec's defaults and never a password", async () => {
    const answer = await get('/api/admin/mongodb/config');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      success: true,
      config: {
        host: 'localhost',
        port: 27017,
        database: 'members',
        username: '',
        authEnabled: false,
        ssl: false,
        poolSize: 10,
        passwordSet: false,
      },
      store: 'embedded',
      environmentOverride: false,
    });
  });

  it('POST config names the bad field with a 400', async () => {
    const good = { host: 'localhost', port: 27017, database: 'members', poolSize: 10 };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ poolSize: 0 }, /^poolSize must be a whole number from 1 to 100/],
      [{ poolSize: 101 }, /^poolSize/],
      [{ port: 70000 }, /^port must be a whole number from 1 to 65535/],
      [{ port: 'abc' }, /^port/],
      [{ host: 'db.example.com; rm -rf' }, /^host must be a host name/],
      [{ host: '' }, /^host/],
      [{ database: 'a/b' }, /^database must be/],
      [{ database: 'x'.repeat(64) }, /^database/],
      [{ authEnabled: true, username: '' }, /^username is required/],
      [{ ssl: 'yes' }, /^ssl must be/],
    ];
    for (const [change, message] of cases) {
      const answer = await post('/api/admin/mongodb/config', { ...good, ...change });
      expect(answer.statusCode, JSON.stringify(change)).toBe(400);
      expect(answer.json().message, JSON.stringify(change)).toMatch(message);
    }
  });

  it('status says which store is live, and where', async () => {
    const answer = await get('/api/admin/mongodb/status');
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ success: true, connected: true, restarting: false });
    const file = path.join(t.dataDir, 'db', 'site.sqlite');
    expect(body.message).toMatch(
      new RegExp(`^Connected: SQLite 3\\.\\d+\\.\\d+ at ${file.replaceAll('/', '\\/')}$`),
    );
    expect(body.stats).toMatchObject({
      store: 'embedded',
      database: 'members',
      location: file,
      port: null,
      environmentOverride: false,
    });
    expect(body.stats.version).toMatch(/^SQLite 3\.\d+\.\d+$/);
    expect(body.stats.uptime).toBeGreaterThanOrEqual(0);
  });

  it('lists its one database and describes it with real counts, sizes and indexes', async () => {
    expect((await get('/api/admin/mongodb/databases')).json()).toEqual({
      success: true,
      databases: [{ name: 'members' }],
    });
    const users = await t.store.collection('users').count();
    const stats = (await get('/api/admin/mongodb/database/members/stats')).json().stats;
    expect(stats).toMatchObject({ database: 'members' });
    expect(stats.objects).toBeGreaterThanOrEqual(users + 1);
    expect(stats.collections).toBeGreaterThanOrEqual(3);

    const details = (await get('/api/admin/mongodb/database/members/details')).json().database;
    expect(details.stats).toMatchObject({ collections: stats.collections, objects: stats.objects });
    const usersInfo = details.collections.find((c: { name: string }) => c.name === 'users');
    expect(usersInfo).toMatchObject({ count: users });
    // SQLite's page counts for the table and its indexes: whole 4 KiB pages, several of them.
    expect(usersInfo.storageSize % 4096).toBe(0);
    expect(usersInfo.storageSize).toBeGreaterThan(4 * 4096);
    expect(usersInfo.size).toBeGreaterThan(users * 100);
    expect(usersInfo.avgObjSize).toBe(Math.round(usersInfo.size / users));
    expect(usersInfo.indexes).toEqual(
      expect.arrayContaining([
        { name: '_id_', keys: { _id: 1 }, unique: true, sparse: false },
        { name: 'email_1', keys: { email: 1 }, unique: true, sparse: false },
        { name: 'resetTokenHash_1', keys: { resetTokenHash: 1 }, unique: false, sparse: false },
      ]),
    );
  });

  it('shows documents with every secret replaced, the total, and the limit capped', async () => {
    const answer = await get('/api/admin/mongodb/database/members/collection/users?limit=20');
    expect(answer.statusCode).toBe(200);
    const { collection } = answer.json();
    const total = await t.store.collection('users').count();
    expect(collection.pagination).toEqual({ total, limit: 20, shown: total });
    const pending = collection.documents.find((d: { email: string }) => d.email === 'reset@example.com');
    expect(pending).toMatchObject({ password: REDACTED, resetTokenHash: REDACTED, role: 'user' });
    expect(pending.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(answer.body).not.toContain('$argon2');
    expect(answer.body).not.toContain('f'.repeat(64));

    const one = (await get('/api/admin/mongodb/database/members/collection/users?limit=1')).json().collection;
    expect(one.documents).toHaveLength(1);
    expect(one.pagination).toEqual({ total, limit: 1, shown: 1 });
    const capped = (await get('/api/admin/mongodb/database/members/collection/users?limit=5000')).json();
    expect(capped.collection.pagination.limit).toBe(100);
    const byDefault = (await get('/api/admin/mongodb/database/members/collection/playlists')).json();
    expect(byDefault.collection.pagination).toEqual({ total: 1, limit: 20, shown: 1 });
    expect((await get('/api/admin/mongodb/database/members/collection/users?limit=abc')).statusCode).toBe(
      400,
    );
    expect((await get('/api/admin/mongodb/database/members/collection/users?limit=0')).statusCode).toBe(400);
  });

  it('answers 404 with a clear message for an unknown database or collection, and creates nothing', async () => {
    const cases: Array<[string, string]> = [
      ['/api/admin/mongodb/database/nope/stats', 'Database "nope" was not found.'],
      ['/api/admin/mongodb/database/nope/details', 'Database "nope" was not found.'],
      ['/api/admin/mongodb/database/nope/collection/users', 'Database "nope" was not found.'],
      [
        '/api/admin/mongodb/database/members/collection/nope',
        'Collection "nope" was not found in database "members".',
      ],
      [
        '/api/admin/mongodb/database/members/collection/..%2F..%2Fjwt-secret',
        'Collection "../../jwt-secret" was not found in database "members".',
      ],
    ];
    for (const [url, message] of cases) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().message, url).toBe(message);
    }
    expect(await t.store.collectionNames()).not.toContain('nope');
  });

  it('Test Connection says plainly that nothing listens on a refused port, keeps the driver’s text beside it, and saves nothing', async () => {
    const port = await freePort();
    const started = Date.now();
    const answer = await post('/api/admin/mongodb/test', { host: '127.0.0.1', port, database: 'members' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      success: false,
      connected: false,
      message: `Connection test failed: Nothing is listening on 127.0.0.1:${port}`,
      detail: expect.stringMatching(new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`)),
    });
    expect(Date.now() - started).toBeLessThan(7000);
    expect((await get('/api/admin/mongodb/config')).json().config.port).toBe(27017);
  });

  it('Save refuses settings that do not connect, and the site carries on as before', async () => {
    const port = await freePort();
    const answer = await post('/api/admin/mongodb/config', { host: '127.0.0.1', port, database: 'members' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ success: false, code: 'VALIDATION' });
    expect(answer.json().message).toBe(`Connection failed: Nothing is listening on 127.0.0.1:${port}`);
    expect(answer.json().error).toBe(answer.json().message);
    expect((await get('/api/admin/mongodb/config')).json().config.port).toBe(27017);
    const added = await post('/api/admin/users', {
      name: 'After',
      email: 'after@example.com',
      password: 'secret-1',
    });
    expect(added.statusCode).toBe(201);
  });
});

describe('database panel API when MONGODB_URI is set', () => {
  it('says so and refuses to save over it', async () => {
    const env = await createTestApp({ MONGODB_URI: 'mongodb://127.0.0.1:1/members' });
    try {
      const token = (await createUser(env, { role: 'admin' })).token;
      const config = await env.app.inject({
        method: 'GET',
        url: '/api/admin/mongodb/config',
        headers: bearer(token),
      });
      expect(config.json().environmentOverride).toBe(true);
      const status = await env.app.inject({
        method: 'GET',
        url: '/api/admin/mongodb/status',
        headers: bearer(token),
      });
      expect(status.json().stats.environmentOverride).toBe(true);
      const save = await env.app.inject({
        method: 'POST',
        url: '/api/admin/mongodb/config',
        payload: { host: 'localhost', port: 27017, database: 'members' },
        headers: await confirmed(env, token),
      });
      expect(save.statusCode).toBe(409);
      expect(save.json().message).toMatch(/MONGODB_URI is set in the environment/);
    } finally {
      await env.close();
    }
  });
});
