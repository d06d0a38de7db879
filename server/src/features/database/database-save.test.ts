import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RestartOutcome } from '../../process/protocol';
import { storeSettingsPath } from '../../settings/store-settings';
import { openEmbeddedStore } from '../../store/sqlite/store';
import type { Store, StoredDoc } from '../../store/store';
import { MOVES_COLLECTION } from '../../store/store-copy';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';
import type { TargetConnector } from './mongo-target';

/**
 * Save Configuration end to end through the API, with the target database being a second
 * embedded store reached through the same port a MongoDB target is (no MongoDB server can run
 * here). The copy, the lock-out rule, the pause of writes and the switch are all the real ones.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  prepareTarget?: (target: Store) => Promise<void>,
  restartOutcome: RestartOutcome = { started: true, port: 0 },
) {
  const targetDir = await mkdtemp(path.join(tmpdir(), 'save-target-'));
  cleanups.push(() => rm(targetDir, { recursive: true, force: true }));
  if (prepareTarget) {
    const target = await openEmbeddedStore(targetDir);
    await prepareTarget(target);
    await target.close();
  }
  const uris: string[] = [];
  const targets: TargetConnector = {
    async test(uri) {
      uris.push(uri);
      const store = await openEmbeddedStore(targetDir);
      try {
        const names = await store.collectionNames();
        let documents = 0;
        for (const name of names) documents += await store.collection(name).count();
        return { collections: names.length, documents, databases: ['members'] };
      } finally {
        await store.close();
      }
    },
    open: async () => openEmbeddedStore(targetDir),
  };
  let restarts = 0;
  const t = await createTestApp(
    {},
    {
      databaseTargets: targets,
      requestRestart: async () => {
        restarts += 1;
        return restartOutcome;
      },
    },
  );
  cleanups.push(() => t.close());
  const admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
  await createUser(t, { email: 'member@example.com', password: 'member-pass-1' });
  await t.store.collection('settings').insertOne({ key: 'slider', value: { cycleTime: 9000 } });
  return { t, admin, targetDir, uris, restarts: () => restarts };
}

const save = async (t: TestApp, token: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/mongodb/config',
    headers: await confirmed(t, token),
    payload: {
      host: 'db.example.com',
      port: 27018,
      database: 'members',
      authEnabled: true,
      username: 'site',
      password: 'p@ss/word',
      poolSize: 20,
      ...body,
    },
  });

const register = (t: TestApp, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'New', email, password: 'new-pass-1' },
  });

describe('Save Configuration', () => {
  it('tells the owner to restart by hand when the server cannot restart itself', async () => {
    const { t, admin, restarts } = await setUp(undefined, { started: false, message: 'no supervisor' });
    expect((await save(t, admin.token)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(restarts()).toBe(1);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mongodb/status',
      headers: bearer(admin.token),
    });
    expect(status.json().message).toBe(
      'The site has moved to the new database, but the server could not restart (no supervisor). Restart it to finish the move.',
    );
    // The panel stops waiting for a restart on this flag, not on the words.
    expect(status.json().restarting).toBe(false);
    // Still paused: a write here would be missing from the database the next start uses.
    expect((await register(t, 'late@example.com')).statusCode).toBe(503);
  });

  it('copies the whole site into an empty target, checks it, switches, and stops writes until the restart', async () => {
    const { t, admin, targetDir, uris, restarts } = await setUp();
    const answer = await save(t, admin.token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      success: true,
      message: 'MongoDB configuration saved successfully!',
      restarting: true,
      // Two settings documents: one the app writes at start, and the mail's (the test app turns welcome mails off).
      copied: { users: 2, settings: 2 },
    });
    expect(uris[0]).toBe(
      'mongodb://site:p%40ss%2Fword@db.example.com:27018/members?maxPoolSize=20&authSource=admin',
    );
    // Nothing can be acknowledged on the old store any more: it would be missing from the new one.
    const late = await register(t, 'late@example.com');
    expect(late.statusCode).toBe(503);
    expect(late.json().message).toMatch(/moving to a new database/);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: bearer(admin.token) }))
        .statusCode,
    ).toBe(200);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mongodb/status',
      headers: bearer(admin.token),
    });
    expect(status.json().message).toMatch(/restarts on it in a moment/);
    // The panel waits on this flag, never on the message's words.
    expect(status.json().restarting).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(restarts()).toBe(1);

    const settings = JSON.parse(await readFile(storeSettingsPath(t.dataDir), 'utf8'));
    expect(settings).toMatchObject({ use: 'mongodb', switchedBy: 'owner@example.com' });
    expect(settings.mongodb).toMatchObject({
      host: 'db.example.com',
      port: 27018,
      password: 'p@ss/word',
      poolSize: 20,
    });
    expect((await stat(storeSettingsPath(t.dataDir))).mode & 0o777).toBe(0o600);
    const config = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mongodb/config',
      headers: bearer(admin.token),
    });
    expect(config.json().config).toMatchObject({ host: 'db.example.com', passwordSet: true });
    expect(config.body).not.toContain('p@ss/word');

    const target = await openEmbeddedStore(targetDir);
    cleanups.push(() => target.close());
    const member = await target.collection<UserDoc>('users').findOne({ email: 'member@example.com' });
    const original = await t.store.collection<UserDoc>('users').findOne({ email: 'member@example.com' });
    expect(member).toEqual(original);
    expect(await target.collection('users').count({ email: 'late@example.com' })).toBe(0);
    expect(await target.collection(MOVES_COLLECTION).count({ state: 'complete' })).toBe(1);
    // The Activity entry was written before the copy, so it moved with the data; password redacted.
    const entries = await target
      .collection<StoredDoc & { kind: string; after: unknown }>('activity')
      .find({ kind: 'database.saved' });
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0]!.after)).not.toContain('p@ss/word');
  });

  it('refuses a target with users where the administrator is not an active administrator: locked out', async () => {
    const { t, admin, restarts } = await setUp(async (target) => {
      await target
        .collection('users')
        .insertOne({ email: 'owner@example.com', role: 'user', status: 'active' });
      await target
        .collection('users')
        .insertOne({ email: 'someone@example.com', role: 'admin', status: 'active' });
    });
    const answer = await save(t, admin.token);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/already has 2 users .* you would be locked out/);
    // Nothing changed: the site still writes to its own store and the settings are not switched.
    expect((await register(t, 'still@example.com')).statusCode).toBe(201);
    const config = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mongodb/config',
      headers: bearer(admin.token),
    });
    expect(config.json().config.host).toBe('localhost');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(restarts()).toBe(0);
  });

  it('uses a target where the administrator is an active administrator as it is, without copying', async () => {
    const { t, admin, targetDir } = await setUp(async (target) => {
      await target
        .collection('users')
        .insertOne({ email: 'owner@example.com', role: 'admin', status: 'active' });
    });
    const answer = await save(t, admin.token, { authEnabled: false });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().copied).toBeUndefined();
    const target = await openEmbeddedStore(targetDir);
    cleanups.push(() => target.close());
    expect(await target.collection('users').count()).toBe(1);
    expect((await register(t, 'late@example.com')).statusCode).toBe(503);
  });

  it('refuses a target where an earlier copy did not finish', async () => {
    const { t, admin } = await setUp(async (target) => {
      await target.collection(MOVES_COLLECTION).insertOne({ state: 'copying', from: 'x', counts: {} });
      await target
        .collection('users')
        .insertOne({ email: 'owner@example.com', role: 'admin', status: 'active' });
    });
    const answer = await save(t, admin.token);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/earlier copy into this database did not finish/);
    expect((await register(t, 'still@example.com')).statusCode).toBe(201);
  });

  it('keeps the saved password when the form leaves it empty', async () => {
    const { t, admin, uris } = await setUp(async (target) => {
      await target
        .collection('users')
        .insertOne({ email: 'owner@example.com', role: 'admin', status: 'active' });
    });
    expect((await save(t, admin.token)).statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/mongodb/test',
      headers: await confirmed(t, admin.token),
      payload: {
        host: 'db.example.com',
        port: 27018,
        database: 'members',
        authEnabled: true,
        username: 'site',
      },
    });
    expect(uris.at(-1)).toContain('site:p%40ss%2Fword@');
    // Pointed at another server, the saved password is not handed to whatever answers there.
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/mongodb/test',
      headers: await confirmed(t, admin.token),
      payload: {
        host: 'elsewhere.example.com',
        port: 27018,
        database: 'members',
        authEnabled: true,
        username: 'site',
      },
    });
    expect(uris.at(-1)).toBe(
      'mongodb://site:@elsewhere.example.com:27018/members?maxPoolSize=10&authSource=admin',
    );
  });

  it('takes one save at a time', async () => {
    const { t, admin } = await setUp();
    const [first, second] = await Promise.all([save(t, admin.token), save(t, admin.token)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
  });
});
