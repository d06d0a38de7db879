import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLDER_EXIT_CODE } from '../../process/protocol';
import { freePort } from '../../test/free-port';
import { describeAsRoot } from '../../test/root-only';
import { mountLoopDisk, mountSmallDisk, type SmallDisk } from '../../test/small-disk';
import { exited, type SpawnedServer, spawnServer } from '../../test/spawn-server';
import { SUPERVISOR_ARGS } from '../../test/supervised-site';

/**
 * Fault drills against the real server process on the SQLite store: a full disk, a read-only
 * remount, and start-up on a folder that cannot be used. Nothing acknowledged is lost, nothing
 * refused shows up anywhere, and the answers say what happened.
 */
const ADMIN = { email: 'owner@example.com', password: 'owner-password-1' };
// A fixed JWT_SECRET: the generated DATA_DIR/jwt-secret is not the store's to keep (and a read-only
// drill that cuts the disk off right after it was written would test that file, not the store).
const ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_MAX: '100000',
  JWT_SECRET: 'store-fault-drills-secret-0123456789abcdef',
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(dataDir: string): Promise<SpawnedServer> {
  const server = await spawnServer({ ...ENV, DATA_DIR: dataDir });
  cleanups.push(() => stop(server));
  return server;
}

async function stop(server: SpawnedServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  server.process.kill('SIGTERM');
  await exited(server.process);
}

function call(server: SpawnedServer, method: string, url: string, body?: unknown, token?: string) {
  return fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const person = (i: number) => ({
  name: `Person ${i}`,
  email: `person${i}@example.com`,
  password: `password-${i}-x`,
});

async function signIn(server: SpawnedServer, who: { email: string; password: string }): Promise<number> {
  return (await call(server, 'POST', '/api/auth/login', { email: who.email, password: who.password })).status;
}

async function adminToken(server: SpawnedServer): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', ADMIN);
  expect(answer.status, server.output()).toBe(200);
  return (await answer.json()).token;
}

/** What the console shows of a person: found by the list's search, and the total count. */
async function listed(server: SpawnedServer, token: string, email: string): Promise<number> {
  const answer = await call(
    server,
    'GET',
    `/api/admin/users?search=${encodeURIComponent(email)}`,
    undefined,
    token,
  );
  return (await answer.json()).total;
}

async function totalUsers(server: SpawnedServer, token: string): Promise<number> {
  return (await (await call(server, 'GET', '/api/admin/stats', undefined, token)).json()).data.totalUsers;
}

describeAsRoot('store fault drills on a 20 MB tmpfs', () => {
  let disk: SmallDisk;
  const mount = async () => {
    disk = await mountSmallDisk(20);
    cleanups.push(() => disk.unmount());
  };

  it('disk full: a clear 507, the refused changes visible nowhere, a retry succeeds after space is freed, and all acknowledged writes survive a restart', async () => {
    await mount();
    let server = await start(disk.dir);
    let token = await adminToken(server);
    const acknowledged: number[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect((await call(server, 'POST', '/api/auth/register', person(i))).status).toBe(201);
      acknowledged.push(i);
    }
    const member = await call(server, 'GET', `/api/admin/users?search=person0@`, undefined, token);
    const memberId = (await member.json()).data[0]._id as string;

    await disk.fill();
    // Whatever still fits in space SQLite already holds is saved and acknowledged; then the disk refuses.
    for (let i = 5; i < 200 && refused.length < 5; i++) {
      const answer = await call(server, 'POST', '/api/auth/register', person(i));
      if (answer.status === 201) acknowledged.push(i);
      else {
        expect(answer.status).toBe(507);
        const body = await answer.json();
        expect(body.code).toBe('STORAGE_FULL');
        expect(body.message).toContain("The disk holding the site's data is full");
        expect(body.message).toContain(path.join(disk.dir, 'db'));
        refused.push(i);
      }
    }
    expect(refused.length).toBe(5);
    // An administrator's password change refused by the disk changes nothing.
    const change = await call(
      server,
      'PUT',
      `/api/admin/users/${memberId}`,
      { password: 'a-new-password-9' },
      token,
    );
    expect(change.status).toBe(507);
    // Every sign-in try is counted in the shared rate-limit counters (a write on the same disk),
    // so a full disk refuses it plainly, wrong password or not.
    expect(await signIn(server, { ...person(0), password: 'a-new-password-9' })).toBe(507);

    for (const i of refused) {
      expect(await listed(server, token, person(i).email), `refused ${i} is not listed`).toBe(0);
    }
    expect(await totalUsers(server, token)).toBe(acknowledged.length + 1);

    await disk.free();
    // A sign-in starts a session (a write), so the old password is tried once there is room.
    expect(await signIn(server, person(0))).toBe(200);
    expect(await signIn(server, { ...person(0), password: 'a-new-password-9' })).toBe(400);
    for (const i of refused) expect(await signIn(server, person(i)), `refused ${i} cannot sign in`).toBe(400);
    const retry = await call(server, 'POST', '/api/auth/register', person(refused[0]!));
    expect(retry.status).toBe(201);
    acknowledged.push(refused.shift()!);

    await stop(server);
    server = await start(disk.dir);
    token = await adminToken(server);
    for (const i of acknowledged) expect(await signIn(server, person(i)), `acknowledged ${i}`).toBe(200);
    for (const i of refused) expect(await listed(server, token, person(i).email)).toBe(0);
    expect(await totalUsers(server, token)).toBe(acknowledged.length + 1);
  }, 120_000);

  it('read-only file system: writes answer 503 and change nothing, reads go on, and after repair everything acknowledged is there', async () => {
    const loop = await mountLoopDisk();
    cleanups.push(() => loop.unmount());
    let server = await start(loop.dir);
    let token = await adminToken(server);
    expect((await call(server, 'POST', '/api/auth/register', person(1))).status).toBe(201);

    await loop.failReadOnly();
    const answer = await call(server, 'POST', '/api/auth/register', person(2));
    expect(answer.status).toBe(503);
    const body = await answer.json();
    expect(body.message).toContain(path.join(loop.dir, 'db'));
    expect(body.message).toContain('Nothing was saved');
    // Reads go on; a sign-in does not (counting the try and starting a session are writes).
    expect(await listed(server, token, person(1).email)).toBe(1);
    expect(await signIn(server, person(2))).toBe(503);
    expect(await listed(server, token, person(2).email)).toBe(0);
    expect(await totalUsers(server, token)).toBe(2);

    await stop(server);
    await loop.remountWritable();
    server = await start(loop.dir);
    token = await adminToken(server);
    expect(await signIn(server, person(1))).toBe(200);
    expect(await listed(server, token, person(2).email)).toBe(0);
    expect((await call(server, 'POST', '/api/auth/register', person(2))).status).toBe(201);
    expect(await signIn(server, person(2))).toBe(200);
    expect(await totalUsers(server, token)).toBe(3);
  }, 120_000);

  it('start-up on a read-only DATA_DIR: one plain line naming the folder, and an exit code that says do not retry', async () => {
    const loop = await mountLoopDisk();
    cleanups.push(() => loop.unmount());
    await loop.failReadOnly();
    const failed = await startFails(loop.dir);
    expect(failed.code).toBe(FOLDER_EXIT_CODE);
    expect(failed.lines).toEqual([expect.stringContaining(loop.dir)]);
    expect(failed.lines[0]).toMatch(/read-only file system\. To fix: /);
  });
});

async function startFails(
  dataDir: string,
): Promise<{ code: number | NodeJS.Signals | null; lines: string[] }> {
  let error: Error | undefined;
  try {
    const server = await spawnServer({ ...ENV, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    cleanups.push(() => stop(server));
  } catch (caught) {
    error = caught as Error;
  }
  expect(error, 'the server must not start').toBeDefined();
  const match = /^Server exited with (\d+): ([\s\S]*)$/.exec(error!.message);
  expect(match, error!.message).not.toBeNull();
  const lines = match![2]!
    .split('\n')
    .filter((line) => line.trim() !== '' && !/ExperimentalWarning|--trace-warnings/.test(line));
  return { code: Number(match![1]), lines };
}

describe('start-up on a DATA_DIR that cannot exist', () => {
  it("under npm start's supervisor: the one line, and no second attempt", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'blocked-'));
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    await writeFile(path.join(parent, 'data'), 'not a folder');
    const child = spawn(process.execPath, SUPERVISOR_ARGS, {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATA_DIR: path.join(parent, 'data', 'site'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    expect(await exited(child)).toBe(FOLDER_EXIT_CODE);
    expect(output.match(/Cannot use the data folder \(DATA_DIR\)/g)).toHaveLength(1);
    expect(output).not.toMatch(/stopped unexpectedly/);
  }, 30_000);

  it('says so in one line naming the folder, and exits with the do-not-retry code', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'blocked-'));
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    // A file where the folder should be: it can neither be used nor created.
    await writeFile(path.join(parent, 'data'), 'not a folder');
    const dataDir = path.join(parent, 'data', 'site');
    const failed = await startFails(dataDir);
    expect(failed.code).toBe(FOLDER_EXIT_CODE);
    expect(failed.lines).toEqual([
      `Cannot use the data folder (DATA_DIR) ${dataDir}: it is (or lies inside) a file, not a folder. To fix: move that file away, or set DATA_DIR to a folder.`,
    ]);
  });
});
