import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
 * Who the server runs as in the permission drill: the checkout's own owner, so that it can load its
 * code wherever and however the checkout was made (a folder only its owner may enter, files made
 * under umask 077), stripped of every capability, so that root too meets file permissions as any
 * user does (without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH).
 */
function checkoutOwner() {
  const { uid, gid } = statSync(ROOT);
  return { uid, gid };
}

/** A command line that runs `args` as `as`, with no capabilities. */
function asUser(as: { uid: number; gid: number }, args: string[]): [string, string[]] {
  return [
    'setpriv',
    [
      `--reuid=${as.uid}`,
      `--regid=${as.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
      ...args,
    ],
  ];
}

/** `npm start`'s supervisor on `dataDir`, as root or as the user `as` without capabilities. */
async function startWith(dataDir: string, as?: { uid: number; gid: number }) {
  let output = '';
  const [command, args] = as
    ? asUser(as, [process.execPath, ...SUPERVISOR_ARGS])
    : [process.execPath, SUPERVISOR_ARGS];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: as ? '/tmp' : (process.env.HOME ?? '/tmp'),
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
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
      const owner = checkoutOwner();
      // A folder of another user, closed to everyone else.
      const stranger = owner.uid === 65534 ? 65533 : 65534;
      const dataDir = path.join(await scratch(), 'closed');
      await mkdir(dataDir, { mode: 0o700 });
      await chown(dataDir, stranger, stranger);
      await chmod(path.dirname(dataDir), 0o755);
      const result = await startWith(dataDir, owner);
      expectOnePlainLine(
        result,
        dataDir,
        new RegExp(`permission denied for user \\S+ \\(uid ${owner.uid}\\)`),
      );
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
