import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { exited } from '../test/spawn-server';
import { SUPERVISOR_ARGS } from '../test/supervised-site';
import { canMount, fillDisk, mountTmpfs } from '../test/tmpfs';
import { FOLDER_EXIT_CODE } from './protocol';

/**
 * Start-up drills: `npm start`'s supervisor with the real server on a DATA_DIR it cannot use.
 * Each must end at once with one plain line naming the folder, the reason and the fix, with no
 * stack trace and no second attempt.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'startup-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The checkout as another user can read it. The checkout may lie in a folder only its owner can
 * enter (a clone under /root, or in a private temporary folder), where that user could not load
 * the server's code at all, so it is bound, read-only, to a folder anyone may enter; git leaves
 * the files inside the checkout readable by all. Read-only, and removed with rmdir only, so that
 * no clean-up can delete anything of the checkout through it.
 */
async function checkoutForAll(): Promise<string> {
  const open = await mkdtemp(path.join(tmpdir(), 'checkout-'));
  await chmod(open, 0o755);
  const checkout = path.join(open, 'repository');
  await mkdir(checkout, { mode: 0o755 });
  cleanups.push(async () => {
    await rmdir(checkout);
    await rmdir(open);
  });
  const run = promisify(execFile);
  await run('mount', ['--bind', '-o', 'ro', ROOT, checkout]);
  cleanups.push(() => run('umount', ['-l', checkout]));
  return checkout;
}

/** `npm start`'s supervisor on `dataDir`, as root or as the user `as` (from a checkout that user can read). */
async function startWith(dataDir: string, as?: { uid: number; gid: number }) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, SUPERVISOR_ARGS, {
    cwd: as ? await checkoutForAll() : ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: as ? '/tmp' : (process.env.HOME ?? '/tmp'),
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ?? {}),
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const code = await exited(child);
  clearTimeout(timer);
  const serverLines = output.split('\n').filter((line) => line.trim() && !line.startsWith('[supervisor]'));
  return { code, output, serverLines };
}

function expectOnePlainLine(result: Awaited<ReturnType<typeof startWith>>, folder: string, reason: RegExp) {
  expect(result.code, result.output).toBe(FOLDER_EXIT_CODE);
  // Once: the supervisor did not try again, and the line is the whole story (no stack).
  expect(result.serverLines, result.output).toHaveLength(1);
  const [line] = result.serverLines;
  expect(line).toContain(folder);
  expect(line).toMatch(reason);
  expect(line).toMatch(/To fix: /);
  expect(result.output).not.toMatch(/^\s+at /m);
  expect(result.output).toMatch(/not starting it again/);
}

describe.skipIf(!canMount('The read-only and disk-full start-up drills'))(
  'a DATA_DIR the server cannot use',
  () => {
    it('read-only: says so, naming the folder, even when DATA_DIR does not exist yet', async () => {
      const mount = path.join(await scratch(), 'ro');
      cleanups.push(await mountTmpfs(mount, '1m', true));
      const result = await startWith(mount);
      expectOnePlainLine(result, mount, /read-only file system/);

      const missing = path.join(mount, 'data', 'members');
      expectOnePlainLine(await startWith(missing), missing, /read-only file system/);
    }, 60_000);

    it('full disk: says the disk is full', async () => {
      const mount = path.join(await scratch(), 'full');
      cleanups.push(await mountTmpfs(mount, '512k'));
      await fillDisk(mount);
      expectOnePlainLine(await startWith(mount), mount, /full disk/);
    }, 60_000);

    it('permission denied: names the user the server runs as', async () => {
      const dataDir = path.join(await scratch(), 'root-only');
      await mkdir(dataDir, { mode: 0o700 }); // root's, and closed to everyone else
      await chmod(path.dirname(dataDir), 0o755);
      const result = await startWith(dataDir, { uid: 65534, gid: 65534 });
      expectOnePlainLine(result, dataDir, /permission denied for user \S+ \(uid 65534\)/);
    }, 60_000);
  },
);

describe('a DATA_DIR that is a file, or holds a file where a folder belongs', () => {
  it('says it is a file, not a folder', async () => {
    const file = path.join(await scratch(), 'not-a-folder');
    await writeFile(file, 'x');
    expectOnePlainLine(await startWith(file), file, /is \(or lies inside\) a file, not a folder/);
  }, 60_000);

  it("names the web server's folder when DATA_DIR/nginx is a file", async () => {
    const dataDir = await scratch();
    await writeFile(path.join(dataDir, 'nginx'), 'x');
    expectOnePlainLine(
      await startWith(dataDir),
      path.join(dataDir, 'nginx'),
      /web server's folder .* is \(or lies inside\) a file, not a folder/,
    );
  }, 60_000);
});
