import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnServer } from '../../test/spawn-server';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const backup = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  });

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const person = (i: number) => ({
  name: `Member ${i}`,
  email: `member${i}@example.com`,
  password: `password-${i}-x`,
});

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm run db:backup', () => {
  it('copies the live database while the server keeps taking writes; the copy checks out and a site restored from it runs', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'backup-site-'));
    const out = await mkdtemp(path.join(tmpdir(), 'backup-out-'));
    dirs.push(dataDir, out);
    const server = await spawnServer({ DATA_DIR: dataDir, RATE_LIMIT_MAX: '100000' });
    const file = path.join(out, 'site-backup.sqlite');
    try {
      for (let i = 0; i < 5; i++)
        expect((await post(`${server.url}/api/auth/register`, person(i))).status).toBe(201);
      // Writes go on during the backup.
      const during = Promise.all(
        Array.from({ length: 10 }, (_, i) => post(`${server.url}/api/auth/register`, person(100 + i))),
      );
      const { stdout } = await backup(['--to', file], { DATA_DIR: dataDir });
      expect((await during).map((a) => a.status)).toEqual(Array(10).fill(201));
      expect(stdout).toContain(`to ${file}`);
      expect(stdout).toContain('is sound (integrity check: ok)');
      const users = Number(/users\s+(\d+)/.exec(stdout)?.[1]);
      expect(users).toBeGreaterThanOrEqual(5);
      expect(users).toBeLessThanOrEqual(15);
      // The server was never interrupted.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      await expect(backup(['--to', file], { DATA_DIR: dataDir })).rejects.toMatchObject({
        stderr: expect.stringContaining('exists already'),
      });
    } finally {
      server.process.kill('SIGTERM');
      await exited(server.process);
    }

    expect((await backup(['--check', file], {})).stdout).toContain('is sound');
    // Restoring: the backup becomes DATA_DIR/db/site.sqlite of a stopped site.
    const restored = await mkdtemp(path.join(tmpdir(), 'restored-site-'));
    dirs.push(restored);
    await mkdir(path.join(restored, 'db'));
    await copyFile(file, path.join(restored, 'db', 'site.sqlite'));
    const again = await spawnServer({ DATA_DIR: restored });
    try {
      for (let i = 0; i < 5; i++) {
        const { email, password } = person(i);
        expect((await post(`${again.url}/api/auth/login`, { email, password })).status).toBe(200);
      }
    } finally {
      again.process.kill('SIGTERM');
      await exited(again.process);
    }
  }, 60_000);
});
