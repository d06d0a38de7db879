import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { nginxForTests, readableTempDir, stopNginx } from '../test/real-nginx';
import { exited, spawnServer } from '../test/spawn-server';

/** Finding 16.12: what the server keeps under DATA_DIR is its owner's alone. */
const nginxBinary = await nginxForTests();

/** Every file and folder under `root` with its permission bits, nginx's own temp folders aside. */
async function modes(root: string): Promise<Array<[string, string]>> {
  const found: Array<[string, string]> = [];
  for (const name of await readdir(root, { recursive: true })) {
    if (/^nginx\/temp\/./.test(name)) continue;
    const info = await lstat(path.join(root, name));
    found.push([`${info.isDirectory() ? 'folder' : 'file'} ${name}`, (info.mode & 0o777).toString(8)]);
  }
  return found.sort();
}

describe('DATA_DIR permissions (16.12)', () => {
  it('files are 0600 and folders 0700, only the way to nginx’s temp folders passable', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'private-'));
    const client = await readableTempDir('private-client-');
    // A folder and a file an older version left readable by everyone.
    await chmod(dir, 0o755);
    await mkdir(path.join(dir, 'outbox'), { mode: 0o755 });
    await writeFile(path.join(dir, 'outbox', 'old.eml'), 'To: a@example.com\n\nold link', { mode: 0o644 });
    await chmod(path.join(dir, 'outbox', 'old.eml'), 0o644);
    const started = await spawnServer({
      DATA_DIR: dir,
      MONGODB_URI: '',
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'owner-password',
      CLIENT_DIST_DIR: client,
      NGINX_LISTEN_ADDRESS: '127.0.0.1',
    });
    let proof = '';
    const post = (url: string, body: object, token?: string) =>
      fetch(`${started.url}${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}`, 'x-reauth': proof } : {}),
        },
        body: JSON.stringify(body),
      });
    try {
      await post('/api/auth/register', { name: 'Member', email: 'member@example.com', password: 'secret1' });
      await post('/api/auth/forgot-password', { email: 'member@example.com' });
      const { token } = await (
        await post('/api/auth/login', { email: 'owner@example.com', password: 'owner-password' })
      ).json();
      // nginx saves and restarts need the password typed again.
      proof = (await (await post('/api/auth/reauth', { password: 'owner-password' }, token)).json()).proof;
      if (nginxBinary) {
        const port = await freePort();
        const saved = await post('/api/system/config', { port, staticRoot: client }, token);
        expect(saved.status, await saved.clone().text()).toBe(200);
        expect((await post('/api/system/restart', {}, token)).status).toBe(200);
        // nginx still works: a body big enough to go through its temp folder reaches the app.
        const through = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'x@example.com', password: 'y'.repeat(15_000) }),
        });
        expect(through.status).toBe(400);
      }
      await new Promise((resolve) => setTimeout(resolve, 300)); // the outbox file is written after the answer
      const found = await modes(dir);
      const names = found.map(([name]) => name);
      expect(names).toContain('file outbox/old.eml');
      expect(names.some((name) => /^file outbox\/.+\.eml$/.test(name) && !name.endsWith('old.eml'))).toBe(
        true,
      );
      expect(names).toContain('file jwt-secret');
      if (nginxBinary) {
        expect(names).toContain('file nginx/history.json');
        expect(names).toContain('file nginx/logs/access.log');
      }
      const passable = new Set(['folder nginx', 'folder nginx/temp']);
      for (const [name, mode] of found) {
        const wanted = name.startsWith('file') ? '600' : passable.has(name) ? '711' : '700';
        expect(`${name} ${mode}`).toBe(`${name} ${wanted}`);
      }
      expect(((await lstat(dir)).mode & 0o777).toString(8)).toBe('711');
    } finally {
      await stopNginx(path.join(dir, 'nginx', 'logs', 'nginx.pid'));
      started.process.kill('SIGTERM');
      await exited(started.process);
      await rm(dir, { recursive: true, force: true });
      await rm(client, { recursive: true, force: true });
    }
  }, 60_000);
});
