import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './free-port';
import { exited } from './spawn-server';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * node's arguments that run `npm start`'s supervisor from its TypeScript sources, from the
 * repository's folder (`npm start` runs the copy built beside the server).
 */
export const SUPERVISOR_ARGS = ['--import', 'tsx', 'server/src/process/supervisor.ts'];

export interface SupervisedSite {
  url: string;
  port: number;
  supervisor: ChildProcess;
  output: () => string;
  /** The pids of the workers serving now, from the supervisor's own lines (a restart adds new ones). */
  servingPids: () => number[];
  /** Stops the supervisor with `signal` and waits for it; returns its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | NodeJS.Signals | null>;
}

/**
 * `npm start`'s supervisor (without the client build) with the real server, in a process group
 * of its own, on a free port; resolves once `workers` workers serve. The environment gets
 * `LOG_LEVEL=warn` unless `env` says otherwise, and none of this shell's MongoDB or port settings.
 */
export async function startSupervisedSite(
  env: Record<string, string>,
  { workers = 1, timeoutMs = 60_000 }: { workers?: number; timeoutMs?: number } = {},
): Promise<SupervisedSite> {
  const port = await freePort();
  let output = '';
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: '',
    MONGODB_URI: '',
    WORKERS: String(workers),
    PORT: String(port),
    ...env,
  };
  const supervisor = spawn(process.execPath, SUPERVISOR_ARGS, {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  supervisor.stdout?.on('data', (chunk) => (output += chunk));
  supervisor.stderr?.on('data', (chunk) => (output += chunk));
  const exitedAt: { code?: number | NodeJS.Signals | null } = {};
  const gone = exited(supervisor).then((code) => {
    exitedAt.code = code;
    return code;
  });
  const site: SupervisedSite = {
    url: `http://127.0.0.1:${port}`,
    port,
    supervisor,
    output: () => output,
    servingPids: () => servingPids(output),
    async stop(signal = 'SIGTERM') {
      if (supervisor.exitCode === null && supervisor.signalCode === null) {
        supervisor.kill(signal);
        const timer = setTimeout(() => {
          // Whatever is left of the group (workers the supervisor did not stop) goes too.
          if (supervisor.pid) process.kill(-supervisor.pid, 'SIGKILL');
        }, 25_000);
        await gone;
        clearTimeout(timer);
      }
      return exitedAt.code ?? null;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (countServing(output) < workers) {
    if (exitedAt.code !== undefined)
      throw new Error(`The supervisor exited with ${exitedAt.code}:\n${output}`);
    if (Date.now() > deadline) {
      await site.stop('SIGKILL');
      throw new Error(`The site did not start ${workers} workers in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return site;
}

const SERVING = /serving on \S+ \(pid (\d+)\)/g;
const STOPPED = /worker (\d+) stopped unexpectedly/g;

function countServing(output: string): number {
  return [...output.matchAll(SERVING)].length;
}

/** Workers that said they serve, minus those the supervisor saw stop (handed-over ones are not told apart). */
function servingPids(output: string): number[] {
  const stopped = new Set([...output.matchAll(STOPPED)].map((m) => Number(m[1])));
  return [...output.matchAll(SERVING)].map((m) => Number(m[1])).filter((pid) => !stopped.has(pid));
}
