import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { openStore } from '../../store/open-store';
import type { Store } from '../../store/store';
import { ferretDbForFile } from '../../test/ferretdb';
import { bearer, confirmed, createTestApp, createUser } from '../../test/test-app';

/**
 * The whole move, as an owner does it: Save Configuration on the embedded store copies the site
 * into MongoDB over the driver (FerretDB here, a real server), switches the saved settings and asks
 * for a restart; the next start then opens MongoDB, where members sign in with their old passwords
 * and the administrator's session carries on.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ferret = ferretDbForFile();

describe.skipIf(!ferret)('moving the site to MongoDB (FerretDB) from the console', () => {
  it('copies everything over the driver, switches, and the next start runs on MongoDB', async () => {
    const mongo = ferret!.server();
    let restarts = 0;
    const before = await createTestApp(
      {},
      {
        requestRestart: async () => {
          restarts += 1;
          return { started: true, port: 0 };
        },
      },
    );
    cleanups.push(() => before.close());
    const admin = await createUser(before, { role: 'admin', email: 'owner@example.com' });
    const member = await createUser(before, { email: 'member@example.com', password: 'member-pass-1' });
    await before.store.collection('playlists').insertOne({ name: 'Dawn', items: [], images: [], videos: [] });

    const saved = await before.app.inject({
      method: 'POST',
      url: '/api/admin/mongodb/config',
      headers: await confirmed(before, admin.token),
      payload: { host: '127.0.0.1', port: mongo.port, database: 'site', poolSize: 5 },
    });
    expect(saved.json()).toMatchObject({
      success: true,
      message: 'MongoDB configuration saved successfully!',
      copied: { users: 2, playlists: 1 },
      restarting: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(restarts).toBe(1);

    // What the supervisor's fresh process does: open the store the settings now choose.
    const config = loadConfig({ DATA_DIR: before.dataDir, LOG_LEVEL: 'silent' });
    const store: Store = await openStore(config);
    cleanups.push(() => store.close());
    expect(store.kind).toBe('mongodb');
    // The server holds what was copied: the move's record, the playlist and both members.
    expect(await store.collectionNames()).toEqual(
      expect.arrayContaining(['store_moves', 'playlists', 'users']),
    );
    const users = await store.collection('users').find({}, { sort: { _id: 1 } });
    expect(users.map((user) => user._id)).toEqual([admin.user._id, member.user._id].sort());
    const after = await buildApp({ config, store });
    cleanups.push(() => after.close());

    const login = await after.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'member@example.com', password: 'member-pass-1' },
    });
    expect(login.statusCode).toBe(200);
    const status = await after.inject({
      method: 'GET',
      url: '/api/admin/mongodb/status',
      headers: bearer(admin.token),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      connected: true,
      stats: { store: 'mongodb', database: 'site', location: `127.0.0.1:${mongo.port}/site` },
    });
    expect(
      (await after.inject({ method: 'GET', url: '/api/admin/stats', headers: bearer(admin.token) })).json(),
    ).toMatchObject({ data: { totalUsers: 2 } });
  });
});
