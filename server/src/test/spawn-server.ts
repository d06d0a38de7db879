import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './free-port';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface SpawnedServer {
  url: string;
  process: ChildProcess;
  output: () => string;
}

/** Starts the real server entry point (as `npm start` does) and waits until it answers. */
export async function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  // Its start (tsx compiling the sources, a store replaying its log) takes a few seconds alone and
  // several times that on a busy two-core machine; the tests time how it answers, not how it starts.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, process: child, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`Server did not start: ${output}`);
}

/** Resolves with the exit code (or signal) once the process has ended. */
export function exited(child: ChildProcess): Promise<number | NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
}
