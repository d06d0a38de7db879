import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { storeSettingsPath } from '../settings/store-settings';
import { startMongoStandIn } from '../test/mongo-stand-in';
import { openEmbeddedStore } from './sqlite/store';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function seeded(users: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'db-copy-'));
  dirs.push(dir);
  const store = await openEmbeddedStore(dir);
  await store.collection('users').ensureIndex({ field: 'email', unique: true });
  await store
    .collection('users')
    .insertMany(Array.from({ length: users }, (_, i) => ({ name: `P${i}`, email: `p${i}@example.com` })));
  await store.collection('settings').insertOne({ key: 'slider', value: {} });
  await store.close();
  return dir;
}

/** `npm run db:copy -- …` is `tsx scripts/db-copy.ts …`; run the same, with its own environment. */
function dbCopy(args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/db-copy.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, MONGODB_URI: '', ...env },
  });
}

describe('npm run db:copy', () => {
  it('copies the embedded store into another one, prints progress and counts, and switches nothing elsewhere', async () => {
    const source = await seeded(12_000);
    const target = await mkdtemp(path.join(tmpdir(), 'db-copy-target-'));
    dirs.push(target);
    const { stdout } = await dbCopy(['--to', `embedded:${target}`], { DATA_DIR: source });
    expect(stdout).toContain(`Copying the embedded store in ${source}`);
    expect(stdout).toContain('users: 10,000 / 12,000');
    expect(stdout).toMatch(/users\s+12000/);
    expect(stdout).toMatch(/settings\s+1/);
    expect(stdout).toMatch(/12001 documents in [\d.]+ s \(\d+ documents\/s\)/);
    expect(stdout).toContain(`start the server with DATA_DIR=${target}`);
    const copied = await openEmbeddedStore(target);
    expect(await copied.collection('users').count()).toBe(12_000);
    await copied.close();
    await expect(readFile(storeSettingsPath(source))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('refuses while a server has the embedded store open, and into a target that holds data', async () => {
    const source = await seeded(10);
    const target = await seeded(1);
    // This test process stands for the running server.
    await writeFile(path.join(source, 'db', '.lock'), `${process.pid}\n`);
    const busy = dbCopy(['--to', `embedded:${target}`], { DATA_DIR: source });
    await expect(busy).rejects.toMatchObject({
      stderr: expect.stringMatching(`process ${process.pid}.*Stop it first`),
    });
    await rm(path.join(source, 'db', '.lock'));
    const full = dbCopy(['--to', `embedded:${target}`], { DATA_DIR: source });
    await expect(full).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /The copy stopped: The target database is not empty \(settings: 1, users: 1\).*move its old db\/ folder aside/s,
      ),
    });
    await expect(dbCopy([], { DATA_DIR: source })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Usage/),
    });
  }, 60_000);

  it('moves SQLite to MongoDB and back, counts checked both ways, ids and dates kept', async () => {
    const source = await seeded(1200);
    const mongo = await startMongoStandIn();
    try {
      const uri = mongo.uri('site');
      const there = await dbCopy(['--to', uri, '--copy-only'], { DATA_DIR: source });
      expect(there.stdout).toMatch(/users\s+1200/);
      expect(mongo.data.site?.users?.docs).toHaveLength(1200);
      const back = await mkdtemp(path.join(tmpdir(), 'db-copy-back-'));
      dirs.push(back);
      const again = await dbCopy(['--from', uri, '--to', `embedded:${back}`, '--copy-only'], {
        DATA_DIR: source,
      });
      expect(again.stdout).toMatch(/users\s+1200/);
      expect(again.stdout).toMatch(/settings\s+1/);
      const [original, copied] = [await openEmbeddedStore(source), await openEmbeddedStore(back)];
      try {
        const first = await original.collection('users').findOne({ email: 'p7@example.com' });
        const returned = await copied.collection('users').findOne({ email: 'p7@example.com' });
        expect(returned).toEqual(first);
        expect(returned?.createdAt).toBeInstanceOf(Date);
        // The unique index came along: the copy refuses a second p7.
        await expect(copied.collection('users').insertOne({ email: 'p7@example.com' })).rejects.toThrow(
          /Duplicate/,
        );
      } finally {
        await Promise.all([original.close(), copied.close()]);
      }
    } finally {
      await mongo.close();
    }
  }, 60_000);
});
