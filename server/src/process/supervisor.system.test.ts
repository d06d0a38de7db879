import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppServerStatus } from '@common/schemas/app-server';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSavedSettings } from '../settings/app-server-file';
import { freePort } from '../test/free-port';
import { exited } from '../test/spawn-server';
import { SUPERVISOR_ARGS } from '../test/supervised-site';

/**
 * `npm start`'s supervisor with the real server: restarts from the console keep every request
 * succeeding, keep what was written, and move to a new port when the saved port changed.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'owner@example.com', password: 'owner-password' };

let supervisor: ChildProcess | undefined;
let dataDir = '';
let output = '';
afterAll(async () => {
  // After a failure: the supervisor and its server processes share a process group of their own.
  if (supervisor?.pid && supervisor.exitCode === null) {
    process.kill(-supervisor.pid, 'SIGKILL');
    await exited(supervisor);
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function waitFor<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt().catch((error) => {
      if (process.env.DEBUG_SUPERVISOR_TEST) console.log(what, error);
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A change as the console makes it: the Node.js panel's saves and restarts need the password confirmed. */
async function api(base: string, token: string | null, method: string, url: string, body?: unknown) {
  const proof =
    token && method !== 'GET' && url.startsWith('/api/admin/nodejs/')
      ? (
          (await (
            await fetch(`${base}/api/auth/reauth`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ password: ADMIN.password }),
            })
          ).json()) as { proof: string }
        ).proof
      : undefined;
  return fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(proof ? { 'x-reauth': proof } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function signIn(base: string): Promise<string> {
  const response = await api(base, null, 'POST', '/api/auth/login', ADMIN);
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** When the oldest worker serving now started (from the workers' uptimes): a finished restart makes it later. */
async function oldestStart(base: string, token: string): Promise<number> {
  const response = await api(base, token, 'GET', '/api/admin/nodejs/status');
  const { workers } = ((await response.json()) as { status: AppServerStatus }).status;
  const uptimes = workers.map((worker) => ('uptime' in worker ? worker.uptime : Number.POSITIVE_INFINITY));
  return Date.now() - Math.max(...uptimes);
}

/** One request on a brand-new connection (no keep-alive), as a first-time visitor makes. */
function freshConnection(base: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Requests in a loop, kept-alive and fresh, counting every one that did not succeed. */
function load(base: string, token: string) {
  let running = true;
  const failures: string[] = [];
  let succeeded = 0;
  const count = (ok: boolean, what: string) => {
    if (ok) succeeded += 1;
    else failures.push(what);
  };
  const kept = async () => {
    while (running) {
      try {
        const response = await api(base, token, 'GET', '/api/admin/users?search=load');
        await response.text();
        count(response.status === 200, `status ${response.status}`);
      } catch (error) {
        count(false, String((error as Error).cause ?? error));
      }
    }
  };
  const fresh = async () => {
    while (running) {
      try {
        count((await freshConnection(base)) === 200, 'fresh connection');
      } catch (error) {
        count(false, `fresh: ${String(error)}`);
      }
    }
  };
  const loops = [...Array.from({ length: 6 }, kept), ...Array.from({ length: 2 }, fresh)];
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { succeeded, failures };
    },
  };
}

describe('restart through the supervisor', () => {
  it('keeps every request succeeding, keeps a write made just before, and serves a changed port', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'supervisor-'));
    const [first, second] = [await freePort(), await freePort()];
    // The port comes from the saved settings, so the console may change it (PORT would fix it).
    await writeSavedSettings(dataDir, { port: first });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: process.env.DEBUG_SUPERVISOR_TEST ? 'info' : 'warn',
      NODE_ENV: '',
      MONGODB_URI: '',
    };
    delete env.PORT;
    supervisor = spawn(process.execPath, SUPERVISOR_ARGS, {
      cwd: ROOT,
      env,
      stdio: 'pipe',
      detached: true,
    });
    supervisor.stdout?.on('data', (chunk) => (output += chunk));
    supervisor.stderr?.on('data', (chunk) => (output += chunk));

    const base = `http://127.0.0.1:${first}`;
    await waitFor('the first start', async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined));
    const token = await signIn(base);

    // A restart on the same port under load.
    const traffic = load(base, token);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const person = { name: 'Written Before', email: 'written-before@example.com', password: 'written-pass' };
    expect((await api(base, token, 'POST', '/api/admin/users', person)).status).toBe(201);
    const restartedAt = Date.now();
    const restart = await api(base, token, 'POST', '/api/admin/nodejs/restart');
    expect(restart.status).toBe(200);
    expect(await restart.json()).toEqual({
      success: true,
      message: 'Server restart initiated...',
      port: first,
      previousPort: first,
    });
    // Every worker is a new one, and the token still works: nobody signs in again.
    await waitFor('the new process', async () =>
      (await oldestStart(base, token)) > restartedAt ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { succeeded, failures } = await traffic.stop();
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(50);
    const found = await api(
      base,
      token,
      'GET',
      `/api/admin/users?search=${encodeURIComponent(person.email)}`,
    );
    expect(((await found.json()) as { data: Array<{ email: string }> }).data.map((u) => u.email)).toEqual([
      person.email,
    ]);

    // A port someone else holds: the restart is refused with the reason, and nothing changes.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    expect((await api(base, token, 'POST', '/api/admin/nodejs/config', { port: taken })).status).toBe(200);
    const refused = await api(base, token, 'POST', '/api/admin/nodejs/restart');
    expect(refused.status, output).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toBe(
      `Cannot listen on 127.0.0.1:${taken} (EADDRINUSE).`,
    );
    await new Promise((resolve) => squatter.close(resolve));
    expect((await api(base, token, 'GET', '/api/admin/nodejs/status')).status).toBe(200);

    // A new port and a new session secret: served on the new port, everyone signs in again.
    const saved = await api(base, token, 'POST', '/api/admin/nodejs/config', {
      port: second,
      sessionSecret: 'a-new-session-secret-that-is-long-enough',
    });
    expect(saved.status).toBe(200);
    const moved = await api(base, token, 'POST', '/api/admin/nodejs/restart');
    expect(await moved.json()).toMatchObject({ success: true, port: second, previousPort: first });
    const next = `http://127.0.0.1:${second}`;
    await waitFor('the new port', async () => ((await fetch(`${next}/api/health`)).ok ? true : undefined));
    // The old port closes once every worker of the old settings has been replaced.
    await waitFor('the old port to close', async () => {
      try {
        await freshConnection(base);
        return undefined;
      } catch {
        return true;
      }
    });
    expect((await api(next, token, 'GET', '/api/admin/nodejs/config')).status).toBe(401);
    const fresh = await signIn(next);
    const config = await (await api(next, fresh, 'GET', '/api/admin/nodejs/config')).json();
    expect(config.config).toMatchObject({ port: second, sessionSecretSet: true, pendingRestart: [] });

    // Stopping the supervisor stops everything and lets go of the store.
    const killedAt = Date.now();
    supervisor.kill('SIGTERM');
    const code = await exited(supervisor);
    expect(code, `${Date.now() - killedAt} ms\n${output}`).toBe(0);
    await expect(stat(path.join(dataDir, 'db', '.lock'))).rejects.toThrow();
    await expect(freshConnection(next)).rejects.toThrow();
  }, 120_000);
});
