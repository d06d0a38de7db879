import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../server/src/test/free-port';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Settings this shell may carry that would make the product run unlike `npm start`'s defaults. */
const NOT_PASSED_ON = ['LOG_LEVEL', 'NODE_ENV', 'MONGODB_URI', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PORT'];

export interface Product {
  url: string;
  port: number;
  logFile: string;
  /** Milliseconds from starting `npm start` to its first answer (to /api/health). */
  startedInMs: number;
  /** The supervisor's process (npm start's own). */
  supervisorPid: number;
  /** The server processes the supervisor runs now (its children, from /proc). */
  workerPids(): Promise<number[]>;
  /** The server process the supervisor runs now (it changes with a restart). */
  serverPid(): Promise<number>;
  /** Stops the supervisor and its server, and waits until they are gone. */
  stop(): Promise<void>;
  /** SIGKILL to the supervisor and its server at once, as a machine losing power; waits until gone. */
  crash(): Promise<void>;
}

/**
 * The product as a person runs it, for a benchmark: `npm start` (node scripts/start.mjs, the
 * supervisor and its server process), in its own process group, with its own DATA_DIR and default
 * settings: this shell's LOG_LEVEL, NODE_ENV, MONGODB_URI and admin account are not passed on,
 * only what `env` names. Its output goes to `logFile`, as it would to a journal.
 */
export async function startProduct(options: {
  dataDir: string;
  logFile: string;
  env?: Record<string, string>;
  port?: number;
  /** How often to ask /api/health while it starts (a start-time benchmark asks often). */
  pollMs?: number;
  /** Another checkout of the product to start instead of this one (to compare with older code). */
  root?: string;
}): Promise<Product> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_PASSED_ON) delete env[name];
  Object.assign(env, { HOST: '127.0.0.1', DATA_DIR: options.dataDir, PORT: String(port) }, options.env);
  const log = openSync(options.logFile, 'a');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: options.root ?? ROOT,
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const product: Product = {
    url,
    port,
    logFile: options.logFile,
    startedInMs: 0,
    supervisorPid: child.pid!,
    workerPids: () => childPids(child.pid!),
    async serverPid() {
      const pids = [...(await readFile(options.logFile, 'utf8')).matchAll(/serving on \S+ \(pid (\d+)\)/g)];
      const last = pids.at(-1)?.[1];
      if (!last) throw new Error(`no server process is named in ${options.logFile}`);
      return Number(last);
    },
    stop: () => stopGroup(child),
    crash: () => stopGroup(child, 'SIGKILL'),
  };
  const deadline = Date.now() + 120_000; // the first start may build the client
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`npm start exited with ${child.exitCode}; see ${options.logFile}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) {
        product.startedInMs = performance.now() - spawnedAt;
        return product;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
  await product.stop();
  throw new Error(`npm start did not answer within 120 s; see ${options.logFile}`);
}

/** The processes whose parent is `pid`, from /proc (the kernel's own list of a task's children). */
export async function childPids(pid: number): Promise<number[]> {
  const list = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return list.split(' ').filter(Boolean).map(Number);
}

/** Resident memory of a process in MB, from /proc (VmRSS), or 0 when it is gone. */
export async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : 0;
}

/** SIGTERM (or `first`) to the whole group (supervisor and server), SIGKILL if it is still there after 15 s. */
async function stopGroup(child: ChildProcess, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  signal(first);
  const forced = setTimeout(() => signal('SIGKILL'), 15_000);
  await exited;
  clearTimeout(forced);
}

/** Signs in over the API and returns the token. */
export async function signIn(url: string, account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The password confirmation the console asks for before a change that can take the site; send
 * the answer in the X-Reauth header (valid 10 minutes).
 */
export async function confirmPassword(url: string, token: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/reauth`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!response.ok)
    throw new Error(`password confirmation answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { proof: string }).proof;
}
