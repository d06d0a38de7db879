import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { hashPassword } from '../features/users/passwords';
import type { UserDoc } from '../features/users/users.repository';
import { loadConfig } from '../settings/config';
import { ferretDbForFile } from '../test/ferretdb';
import { openMongoStore } from './mongo/store';
import { openEmbeddedStore } from './sqlite/store';
import type { Store, StoredDoc } from './store';
import { contentsOf, copyStore, MOVES_COLLECTION, type MoveDoc } from './store-copy';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function embedded(): Promise<{ store: Store; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'copy-test-'));
  const store = await openEmbeddedStore(dataDir);
  cleanups.push(
    () => rm(dataDir, { recursive: true, force: true }),
    () => store.close(),
  );
  return { store, dataDir };
}

/** A source with a bit of everything the site keeps, with dates in the past to prove they are kept. */
async function seedSource(store: Store) {
  const users = store.collection<UserDoc>('users');
  await users.ensureIndex({ field: 'email', unique: true });
  const createdAt = new Date('2024-03-04T05:06:07.089Z');
  const updatedAt = new Date('2024-05-06T07:08:09.012Z');
  const password = await hashPassword('old-password-1');
  await users.insertMany(
    Array.from({ length: 6000 }, (_, i) => ({
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      password,
      role: i === 0 ? ('admin' as const) : ('user' as const),
      membershipTier: i % 3 ? ('free' as const) : ('paid' as const),
      status: 'active' as const,
      tokenVersion: i % 2,
      createdAt,
      updatedAt,
      ...(i === 7 ? { resetTokenHash: 'abc', resetTokenExpiresAt: new Date('2030-01-01T00:00:00Z') } : {}),
    })),
  );
  await store
    .collection('settings')
    .insertOne({ key: 'slider', value: { cycleTime: 9000, overlayColor: '1,2,3' } });
  await store
    .collection('playlists')
    .insertOne({ name: 'Evening', items: [{ type: 'image', url: 'a.jpg' }] });
  await store
    .collection('media_scans')
    .insertOne({ basePath: '/srv/media', timestamp: 'now', discoveries: {} });
  return { createdAt, updatedAt };
}

async function everything(store: Store, name: string): Promise<StoredDoc[]> {
  return store.collection<StoredDoc>(name).find({}, { sort: { _id: 1 } });
}

function describeCopy(label: string, openTarget: () => Promise<Store>) {
  describe(`copyStore: embedded → ${label}`, () => {
    it('copies every document of every collection with its id and timestamps, then checks the counts', async () => {
      const { store: source } = await embedded();
      const { createdAt, updatedAt } = await seedSource(source);
      const target = await openTarget();
      const progress: string[] = [];

      const result = await copyStore(source, target, {
        from: 'test source',
        onProgress: (p) => progress.push(`${p.collection} ${p.copied}/${p.total}`),
      });

      expect(result.counts).toEqual({ media_scans: 1, playlists: 1, settings: 1, users: 6000 });
      expect(result.documents).toBe(6003);
      expect(progress).toContain('users 5000/6000');
      expect(progress.at(-1)).toBe('users 6000/6000');
      for (const name of ['users', 'settings', 'playlists', 'media_scans']) {
        expect(await everything(target, name), name).toEqual(await everything(source, name));
      }
      const copied = await target.collection<UserDoc>('users').findOne({ email: 'person7@example.com' });
      expect(copied?.createdAt).toEqual(createdAt);
      expect(copied?.updatedAt).toEqual(updatedAt);
      expect(copied?.resetTokenExpiresAt).toEqual(new Date('2030-01-01T00:00:00Z'));
      // The unique e-mail index came along before the documents.
      await expect(
        target.collection<UserDoc>('users').insertOne({ ...copied!, email: 'person1@example.com' }),
      ).rejects.toThrow(/Duplicate/);

      const [move] = await target.collection<MoveDoc>(MOVES_COLLECTION).find({});
      expect(move).toMatchObject({ state: 'complete', from: 'test source', counts: result.counts });
    });

    it('refuses a target that already holds data, and leaves it as it was', async () => {
      const { store: source } = await embedded();
      await seedSource(source);
      const target = await openTarget();
      await target.collection('settings').insertOne({ key: 'other' });
      await expect(copyStore(source, target, { from: 'x' })).rejects.toThrow(/not empty \(settings: 1\)/);
      expect((await contentsOf(target)).counts).toEqual({ settings: 1 });
    });
  });
}

describeCopy('embedded', async () => (await embedded()).store);

// Into FerretDB, a real server (test/ferretdb.ts), a fresh database per test.
const ferret = ferretDbForFile();
if (ferret) {
  describeCopy('MongoDB (FerretDB)', async () => {
    const store = await openMongoStore(ferret.freshUri('copy_test'));
    cleanups.push(() => store.close());
    return store;
  });
}

const uri = process.env.MONGODB_URI;
if (uri) {
  describeCopy('MongoDB (MONGODB_URI)', async () => {
    // A fresh database per test, on the server MONGODB_URI names.
    const url = new URL(uri);
    url.pathname = `/copy_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const store = await openMongoStore(url.toString());
    cleanups.push(() => store.close());
    return store;
  });
}

describe('after a copy', () => {
  it('a member signs in on the new store with the password they had on the old one', async () => {
    const { store: source } = await embedded();
    await seedSource(source);
    const { store: target, dataDir } = await embedded();
    await copyStore(source, target, { from: 'test' });

    const app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
      store: target,
    });
    cleanups.push(() => app.close());
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'person42@example.com', password: 'old-password-1' },
    });
    expect(login.statusCode).toBe(200);
    const source42 = await source.collection<UserDoc>('users').findOne({ email: 'person42@example.com' });
    const session = await app.inject({
      method: 'GET',
      url: '/api/admin/stats',
      headers: { authorization: `Bearer ${login.json().token}` },
    });
    // A member, so 403: the token was accepted for the same user id as on the old store.
    expect(session.statusCode).toBe(403);
    expect(source42?._id).toMatch(/^[0-9a-f]{24}$/);
  });
});
