import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserDoc } from '../../features/users/users.repository';
import { StartupError } from '../../lib/startup-error';
import { exited, spawnServer } from '../../test/spawn-server';
import { openEmbeddedStore } from '../sqlite/store';
import { DuplicateKeyError, type StoredDoc } from '../store';

/**
 * A DATA_DIR written by the version before SQLite: `fixtures/nedb-site` holds the files that
 * version's store (nedb 4.1) wrote for an owner, a member who was then updated (later line), a
 * member who was deleted ($$deleted), the slider settings and a playlist, with their indexes.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'nedb-site');
const OWNER = { email: 'owner@old.example', password: 'old-site-password-1' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function oldSite(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'old-site-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  await cp(FIXTURE, path.join(dataDir, 'db'), { recursive: true });
  return dataDir;
}

const login = (url: string, body: unknown) =>
  fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('moving an existing site from the old store files to SQLite', () => {
  it('imports everything on the first start; the owner signs in with the old password; the old files are moved aside with one line saying so', async () => {
    const dataDir = await oldSite();
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      expect((await login(server.url, OWNER)).status).toBe(200);
      expect(
        (await login(server.url, { email: 'emilie@old.example', password: OWNER.password })).status,
      ).toBe(200);
      expect((await login(server.url, { email: 'gone@old.example', password: OWNER.password })).status).toBe(
        400,
      );
    } finally {
      server.process.kill('SIGTERM');
      await exited(server.process);
    }
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('Imported'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Imported 4 documents in 3 collections from the old store's files into .*site\.sqlite; the old files were moved to .*nedb-files-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.$/,
    );
    const db = path.join(dataDir, 'db');
    const moved = (await readdir(db)).find((name) => name.startsWith('nedb-files-'))!;
    expect((await readdir(path.join(db, moved))).sort()).toEqual(['playlists.db', 'settings.db', 'users.db']);
    expect((await readdir(db)).filter((name) => name.endsWith('.db'))).toEqual([]);

    // Ids, timestamps, every field and the indexes, as the old files had them.
    const store = await openEmbeddedStore(dataDir, () => undefined);
    try {
      const users = store.collection<UserDoc>('users');
      expect(await users.count()).toBe(2);
      const emilie = (await users.findById('1dba5602409a73107d10022b'))!;
      expect(emilie).toMatchObject({
        name: 'Émilie Member',
        membershipTier: 'paid',
        resetTokenHash: 'abc123',
      });
      expect(emilie.createdAt).toEqual(new Date(1795465892286));
      expect(emilie.updatedAt).toEqual(new Date(1795465892287));
      expect(emilie.resetTokenExpiresAt).toEqual(new Date('2031-02-03T04:05:06.007Z'));
      expect(await users.findById('8e0dce9a2a2ceedce00ace43')).toBeNull();
      await expect(users.insertOne({ ...emilie, _id: undefined } as never)).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      const [slider] = await store
        .collection<StoredDoc & { value: unknown }>('settings')
        .find({ key: 'slider' });
      expect(slider?.value).toEqual({ cycleTime: 9000, overlayColor: '1,2,3' });
      expect(await store.collection('playlists').count()).toBe(1);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('leaves out a torn last line (a write the old store never acknowledged) and says so', async () => {
    const dataDir = await oldSite();
    await appendFile(path.join(dataDir, 'db', 'users.db'), '\n{"name":"Half written","email":"ha');
    const notices: string[] = [];
    const store = await openEmbeddedStore(dataDir, (line) => notices.push(line));
    try {
      expect(await store.collection('users').count()).toBe(2);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(
        'an unfinished last line, a write never acknowledged, was left out of users.db',
      );
    } finally {
      await store.close();
    }
  });

  it('refuses a file damaged in the middle, naming it and the line, and imports nothing', async () => {
    const dataDir = await oldSite();
    const file = path.join(dataDir, 'db', 'settings.db');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.splice(1, 0, '{"key":"broken"');
    await writeFile(file, lines.join('\n'));
    const failure = await openEmbeddedStore(dataDir, () => undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as Error).message).toBe(
      `${file}, line 2, is damaged (not a JSON document); nothing was imported. Repair or move that file, then start again.`,
    );
    expect((await readdir(path.join(dataDir, 'db'))).filter((name) => name.endsWith('.db')).sort()).toEqual([
      'playlists.db',
      'settings.db',
      'users.db',
    ]);
    // Once the file is repaired, the next start imports it all.
    await writeFile(file, lines.filter((line) => line !== '{"key":"broken"').join('\n'));
    const store = await openEmbeddedStore(dataDir, () => undefined);
    expect(await store.collection('users').count()).toBe(2);
    await store.close();
  });

  it('never imports twice: files found again after an import are only moved aside', async () => {
    const dataDir = await oldSite();
    let store = await openEmbeddedStore(dataDir, () => undefined);
    await store.close();
    // As if the previous start stopped after the import's commit, before moving the files.
    await mkdir(path.join(dataDir, 'db'), { recursive: true });
    await cp(FIXTURE, path.join(dataDir, 'db'), { recursive: true });
    const notices: string[] = [];
    store = await openEmbeddedStore(dataDir, (line) => notices.push(line));
    try {
      expect(await store.collection('users').count()).toBe(2);
      expect(notices[0]).toMatch(
        /^The old store's files were imported earlier into .*; the old files were moved to /,
      );
    } finally {
      await store.close();
    }
  });
});
