import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../store/sqlite/store';
import type { UserDoc } from './users.repository';

/** Finding 16.8: `npm run seed` never plants administrators and never mixes into real accounts. */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** `npm run seed -- …` is `tsx scripts/seed.ts …`; run the same, with its own DATA_DIR. */
function seed(dataDir: string, args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, MONGODB_URI: '' },
  });
}

async function usersIn(dataDir: string): Promise<UserDoc[]> {
  const store = await openEmbeddedStore(dataDir);
  try {
    return await store.collection<UserDoc>('users').find({});
  } finally {
    await store.close();
  }
}

async function withRealUser(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seed-'));
  dirs.push(dir);
  const store = await openEmbeddedStore(dir);
  await store.collection('users').insertOne({ name: 'Owner', email: 'owner@example.com', role: 'admin' });
  await store.close();
  return dir;
}

describe('npm run seed', () => {
  it('adds demo users of whom none is an administrator', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seed-'));
    dirs.push(dir);
    await seed(dir, ['--users', '2000']);
    const users = await usersIn(dir);
    expect(users).toHaveLength(2000);
    expect(users.filter((user) => user.role === 'admin')).toEqual([]);
  });

  it('refuses a store with other users unless told --force', async () => {
    const dir = await withRealUser();
    const refused = await seed(dir, ['--users', '10']).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/--force/);
    expect(await usersIn(dir)).toHaveLength(1);
    await seed(dir, ['--users', '10', '--force']);
    expect(await usersIn(dir)).toHaveLength(11);
  });

  it('--courses adds the demo courses once, published; --remove takes them away with everything they hold', async () => {
    const dir = await withRealUser();
    const first = await seed(dir, ['--courses']);
    expect(first.stdout).toMatch(/Added 3 published demo courses/);
    expect((await seed(dir, ['--courses'])).stdout).toMatch(/are in .* already/);
    const count = async (name: string) => {
      const store = await openEmbeddedStore(dir);
      try {
        return await store.collection(name).count();
      } finally {
        await store.close();
      }
    };
    expect(await count('courses')).toBe(3);
    expect(await count('course_lessons')).toBe(16);
    expect(await usersIn(dir)).toHaveLength(1);
    const { stdout } = await seed(dir, ['--remove']);
    expect(stdout).toMatch(/Removed 3 demo courses/);
    for (const name of ['courses', 'course_sections', 'course_lessons', 'course_lesson_bodies'])
      expect(await count(name), name).toBe(0);
  });

  it('--remove deletes every demo user and nothing else', async () => {
    const dir = await withRealUser();
    await seed(dir, ['--users', '30', '--force']);
    const { stdout } = await seed(dir, ['--remove']);
    expect(stdout).toMatch(/Removed 30 demo users/);
    expect((await usersIn(dir)).map((user) => user.email)).toEqual(['owner@example.com']);
  });
});
