import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppServerStatus } from '@common/schemas/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { exited } from '../test/spawn-server';
import { SUPERVISOR_ARGS, type SupervisedSite, startSupervisedSite } from '../test/supervised-site';
import { FOLDER_EXIT_CODE } from './protocol';

/**
 * `npm start`'s supervisor running WORKERS=2 server processes: connections go to each in turn,
 * a crashed worker is replaced while the other serves, a console restart replaces them one at a
 * time without a failed request, and the Node.js panel's status lists each worker.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'owner@example.com', password: 'owner-password' };
let site: SupervisedSite;
let dataDir = '';
let token = '';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'workers-'));
  site = await startSupervisedSite(
    { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    { workers: 2 },
  );
  const response = await post('/api/auth/login', ADMIN);
  expect(response.status).toBe(200);
  token = ((await response.json()) as { token: string }).token;
}, 90_000);

afterAll(async () => {
  await site?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function post(url: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${site.url}${url}`, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** One request on a brand-new connection, so that the supervisor picks the next worker for it. */
function fresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${site.url}${url}`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function status(): Promise<AppServerStatus> {
  const answer = await fresh('/api/admin/nodejs/status');
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { status: AppServerStatus }).status;
}

async function until<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${site.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The Node.js panel's config as each worker sees it: two requests in a row on new connections go
 * to the two workers in turn (the first test shows it), as nothing else connects meanwhile.
 */
async function configSeenByEachWorker(): Promise<Array<{ nodeEnv: string; pendingRestart: string[] }>> {
  const views = [];
  for (let i = 0; i < 2; i++) {
    const answer = await fresh('/api/admin/nodejs/config');
    views.push((JSON.parse(answer.body) as { config: { nodeEnv: string; pendingRestart: string[] } }).config);
  }
  return views;
}

const workerPids = async () => (await status()).workers.map((worker) => worker.pid).sort();

describe('WORKERS=2 under the supervisor', () => {
  it('hands new connections to each worker in turn and shows each one with the totals', async () => {
    const answeredBy = new Set<number>();
    for (let i = 0; i < 6; i++) answeredBy.add((await status()).answeredBy);
    expect(answeredBy.size).toBe(2);

    const now = await status();
    expect(now.workers.map((worker) => worker.pid).sort()).toEqual([...answeredBy].sort());
    expect(now.supervisor?.pid).toBe(site.supervisor.pid);
    const measured = now.workers.filter((worker) => 'memory' in worker);
    expect(measured).toHaveLength(2);
    const rss = measured.reduce((sum, worker) => sum + ('memory' in worker ? worker.memory.rss : 0), 0);
    expect(now.memory.rss).toBe(rss);
    for (const worker of measured) expect(worker.uptime).toBeGreaterThan(0);
  });

  it('holds the data folder for the whole site: a second npm start on it is refused', async () => {
    let output = '';
    const second = spawn(process.execPath, SUPERVISOR_ARGS, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        WORKERS: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    second.stdout?.on('data', (chunk) => (output += chunk));
    second.stderr?.on('data', (chunk) => (output += chunk));
    // Refused once, in one line, and not tried again: it cannot succeed while this site runs.
    expect(await exited(second)).toBe(FOLDER_EXIT_CODE);
    expect(output.match(/is in use by process (\d+)/g)).toEqual([
      `is in use by process ${site.supervisor.pid}`,
    ]);
    // The site itself never noticed.
    expect((await fresh('/api/health')).status).toBe(200);
  }, 60_000);

  it('replaces a worker that crashes while the other keeps serving', async () => {
    const before = await workerPids();
    const victim = before[0] as number;
    process.kill(victim, 'SIGKILL');
    await until('the supervisor to notice', async () =>
      site.output().includes(`worker ${victim} stopped unexpectedly`) ? true : undefined,
    );
    // From here every new visitor is served, by the worker that is left or by its new sibling.
    const answers = await Promise.all(Array.from({ length: 40 }, () => fresh('/api/health')));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const after = await until('a replacement', async () => {
      const pids = await workerPids();
      return pids.length === 2 && !pids.includes(victim) ? pids : undefined;
    });
    expect(after).toContain(before[1]);
  }, 60_000);

  it('restarts the workers one at a time from the console without failing a request', async () => {
    const before = await workerPids();
    // A setting saved through one worker is the one every worker shows, and uses after the restart.
    const confirm = async () =>
      ((await (await post('/api/auth/reauth', { password: ADMIN.password })).json()) as { proof: string })
        .proof;
    const saved = await post(
      '/api/admin/nodejs/config',
      { nodeEnv: 'development' },
      { 'x-reauth': await confirm() },
    );
    expect(saved.status).toBe(200);
    const views = await configSeenByEachWorker();
    expect(views.map((view) => view.pendingRestart)).toEqual([['nodeEnv'], ['nodeEnv']]);

    let running = true;
    const failures: string[] = [];
    let succeeded = 0;
    const loop = async () => {
      while (running) {
        try {
          const answer = await fresh('/api/admin/users?search=load');
          if (answer.status === 200) succeeded += 1;
          else failures.push(`status ${answer.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const restart = await post('/api/admin/nodejs/restart', undefined, { 'x-reauth': await confirm() });
    expect(restart.status).toBe(200);
    const after = await until('two new workers', async () => {
      const pids = await workerPids();
      return pids.length === 2 && pids.every((pid) => !before.includes(pid)) ? pids : undefined;
    });
    await until('the restart to finish', async () =>
      site.output().includes('restart finished') ? true : undefined,
    );
    running = false;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(20);
    expect(after).toHaveLength(2);
    const afterRestart = await configSeenByEachWorker();
    expect(afterRestart.map((view) => [view.nodeEnv, view.pendingRestart])).toEqual([
      ['development', []],
      ['development', []],
    ]);
  }, 90_000);

  it('removes the shared lock when the site stops', async () => {
    const lock = path.join(dataDir, 'db', '.lock');
    expect((await stat(lock)).isFile()).toBe(true);
    expect(await site.stop()).toBe(0);
    await expect(stat(lock)).rejects.toThrow();
  }, 60_000);
});
