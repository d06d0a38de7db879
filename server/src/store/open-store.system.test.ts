import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_STORE_SETTINGS,
  type StoreSettings,
  storeSettingsPath,
  writeStoreSettings,
} from '../settings/store-settings';
import { type MongoStandIn, startMongoStandIn } from '../test/mongo-stand-in';
import { exited, spawnServer } from '../test/spawn-server';
import { chooseStore, openStore } from './open-store';
import { lockOwner } from './sqlite/lock';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'open-store-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function standIn(): Promise<MongoStandIn> {
  const started = await startMongoStandIn();
  cleanups.push(() => started.close());
  return started;
}

const switched = (port: number, database = 'site'): StoreSettings => ({
  use: 'mongodb',
  mongodb: { ...DEFAULT_STORE_SETTINGS.mongodb, host: '127.0.0.1', port, database },
});

describe('the store a start opens', () => {
  it('is the embedded store when nothing says otherwise, and saved-but-not-switched settings change nothing', async () => {
    const dir = await dataDir();
    expect(await chooseStore({ dataDir: dir })).toEqual({ kind: 'embedded' });
    await writeStoreSettings(dir, { ...switched(27017), use: 'embedded' });
    expect(await chooseStore({ dataDir: dir })).toEqual({ kind: 'embedded' });
  });

  it('is the saved MongoDB once the settings were switched on, and MONGODB_URI always wins', async () => {
    const dir = await dataDir();
    await writeStoreSettings(dir, switched(27018));
    expect(await chooseStore({ dataDir: dir })).toEqual({
      kind: 'mongodb',
      uri: 'mongodb://127.0.0.1:27018/site?maxPoolSize=10',
      source: 'saved settings',
    });
    await writeStoreSettings(dir, { ...switched(27018), uri: 'mongodb+srv://u:p@cluster0.example.net/site' });
    expect(await chooseStore({ dataDir: dir })).toMatchObject({
      uri: 'mongodb+srv://u:p@cluster0.example.net/site',
    });
    expect(await chooseStore({ dataDir: dir, mongodbUri: 'mongodb://env:27017/x' })).toEqual({
      kind: 'mongodb',
      uri: 'mongodb://env:27017/x',
      source: 'environment',
    });
  });

  it('opens the saved MongoDB over the driver', async () => {
    const dir = await dataDir();
    const server = await standIn();
    await writeStoreSettings(dir, switched(server.port));
    const store = await openStore({ dataDir: dir });
    cleanups.push(() => store.close());
    expect(store.kind).toBe('mongodb');
    await store.collection('things').ensureIndex({ field: 'name', unique: true });
    expect(server.sent().find((c) => c.name === 'createIndexes')).toMatchObject({ db: 'site' });
  });

  it('fails loudly, naming the settings file, when the saved MongoDB cannot be reached (never falls back)', async () => {
    const dir = await dataDir();
    const server = await standIn();
    await server.close();
    await writeStoreSettings(dir, {
      ...switched(server.port),
      mongodb: { ...switched(server.port).mongodb, authEnabled: true, username: 'u', password: 'hush' },
    });
    const failure = openStore({ dataDir: dir });
    await expect(failure).rejects.toThrow(/Could not open MongoDB at mongodb:\/\/u:\*\*\*@127\.0\.0\.1/);
    await expect(failure).rejects.toThrow(
      new RegExp(`${storeSettingsPath(dir).replaceAll('/', '\\/')}; set "use" to "embedded"`),
    );
  }, 20_000);

  it('locks an embedded store to this process while it is open', async () => {
    const dir = await dataDir();
    const store = await openStore({ dataDir: dir });
    expect((await readFile(path.join(dir, 'db', '.lock'), 'utf8')).trim()).toBe(String(process.pid));
    // Another process would see us; we do not count ourselves.
    expect(await lockOwner(path.join(dir, 'db'))).toBeNull();
    await store.close();
    await expect(readFile(path.join(dir, 'db', '.lock'))).rejects.toThrow(/ENOENT/);
    await writeFile(path.join(dir, 'db', '.lock'), '999999999\n');
    expect(await lockOwner(path.join(dir, 'db'))).toBeNull(); // no such process: a leftover from a crash
  });
});

describe('a plain start of the server (no supervisor)', () => {
  it('opens the store the saved settings switched to', async () => {
    const dir = await dataDir();
    const server = await standIn();
    await writeStoreSettings(dir, switched(server.port, 'moved'));
    const started = await spawnServer({ DATA_DIR: dir, MONGODB_URI: '' });
    try {
      const created = server.sent().filter((c) => c.name === 'createIndexes');
      expect(created.map((c) => [c.db, c.document.createIndexes])).toContainEqual(['moved', 'users']);
      expect(await lockOwner(path.join(dir, 'db'))).toBeNull();
    } finally {
      started.process.kill('SIGTERM');
      await exited(started.process);
    }
  }, 30_000);

  it('opens the embedded store otherwise, and locks it so that db:copy sees it in use', async () => {
    const dir = await dataDir();
    const started = await spawnServer({ DATA_DIR: dir, MONGODB_URI: '' });
    try {
      expect(await lockOwner(path.join(dir, 'db'))).toBe(started.process.pid);
    } finally {
      started.process.kill('SIGTERM');
      await exited(started.process);
    }
    expect(await lockOwner(path.join(dir, 'db'))).toBeNull();
  }, 30_000);
});
