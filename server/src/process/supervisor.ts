// The supervisor `npm start` runs (scripts/start.mjs). It owns the listening socket and runs
// WORKERS server processes (workers), passing each accepted connection to the next worker in
// turn over IPC (connections.ts). Connections wait, paused, while no worker is ready, so nobody's
// request fails while workers come and go:
//
//   start:   the first worker says where it wants to listen and how many workers the site runs
//            (its settings decide: WORKERS, else the Node.js panel's, else the default); once it
//            is ready (store opened, any import done) the others are started beside it.
//   crash:   a worker that stops unexpectedly is replaced (crash-replacement.ts); the others keep serving.
//   restart: asked for from the console, the workers are replaced one at a time (rolling-restart.ts).
//
// Run on its own from the sources: node --import tsx server/src/process/supervisor.ts (no client
// build). `npm start` runs the copy built beside the server (dist/server/process/supervisor.js).
// SIGINT or SIGTERM stops everything cleanly and removes the store's lock file the workers share.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connections, type RawHandle } from './connections';
import { CrashReplacement } from './crash-replacement';
import type { WorkerMessage } from './protocol';
import { RollingRestart } from './rolling-restart';
import { StatusGathering } from './status';
import { log } from './supervisor-log';
import type { WorkerRecord, WorkerState } from './worker-record';
import { WorkerPool } from './workers';

type Hello = Extract<WorkerMessage, { type: 'hello' }>;

/** The repository: this file lies three folders down in the sources and in the build alike. */
const ROOT = path.resolve(import.meta.dirname, '../../..');
/** How long the workers have to finish what they serve once the supervisor stops. */
const STOP_TIMEOUT_MS = 20_000;

export interface SuperviseOptions {
  /** The server's main module. */
  entry?: string;
  /** The node options the workers run with. */
  execArgv?: string[];
  /** The workers' working folder. */
  cwd?: string;
}

/**
 * `entry` is the server's main module and `execArgv` the node options it runs with: by default
 * the TypeScript sources through tsx (tests, running this file on its own); `npm start` passes
 * the built server and its own options.
 */
export function supervise({
  entry = 'server/src/main.ts',
  execArgv = ['--import', 'tsx'],
  cwd = ROOT,
}: SuperviseOptions = {}): void {
  let exitCode = 0;
  /** The embedded store's lock file, which the workers share under this process's pid. */
  let lockFile: string | null = null;
  const pool: WorkerPool = new WorkerPool(
    { entry, execArgv, cwd },
    { message: onMessage, exit: onExit },
    () => restart.running,
  );
  const connections = new Connections(() => pool.next());
  const closeUnusedListeners = () => connections.closeUnused(pool.addressesInUse());
  const restart = new RollingRestart(pool, closeUnusedListeners);
  const status = new StatusGathering((worker, message) => pool.send(worker, message));
  const crashes = new CrashReplacement();

  function onMessage(worker: WorkerRecord, message: WorkerMessage, handle: unknown): void {
    switch (message?.type) {
      case 'hello':
        void onHello(worker, message);
        break;
      case 'ready':
        onReady(worker);
        break;
      case 'restart':
        restart.start(worker);
        break;
      case 'handback':
        if (handle) connections.handBack(handle as RawHandle);
        break;
      case 'fatal':
        worker.fatal = message.message;
        break;
      case 'lock':
        lockFile = message.file;
        break;
      case 'status':
        status.gather(worker, message.id, pool.serving);
        break;
      case 'report':
        status.report(worker, message.id, message.report);
        break;
    }
  }

  async function onHello(worker: WorkerRecord, { host, port, workers }: Hello): Promise<void> {
    clearTimeout(worker.helloTimer);
    // The first worker of a start or restart decides how many workers the site has.
    if (worker.first && Number.isInteger(workers) && workers >= 1) pool.wanted = workers;
    try {
      worker.address = await connections.listen(host, port);
    } catch (error) {
      const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      const reason = `Cannot listen on ${host}:${port} (${cause}).`;
      worker.fatal = reason;
      worker.cannotListen = true;
      pool.send(worker, { type: 'abort', message: reason });
      return; // its exit says the rest
    }
    pool.send(worker, { type: 'start' });
  }

  function onReady(worker: WorkerRecord): void {
    if (!pool.ready(worker)) return;
    const { key, port } = worker.address!;
    const url = `http://${key.replace(/:(\d+)$/, '')}:${port}`;
    log(`serving on ${url} (pid ${worker.pid}) · ${pool.serving.length} serving, ${pool.wanted} wanted`);
    connections.flush();
    if (restart.running) restart.workerReady(worker);
    else pool.fill();
  }

  function onExit(
    worker: WorkerRecord,
    was: WorkerState,
    code: number | null,
    signal: NodeJS.Signals | null,
  ) {
    // Asked to go (replaced, one too many), or stopped with the rest: nothing to replace.
    if (was === 'leaving' || pool.stopping) {
      if (pool.stopping) finishIfDone();
      return;
    }
    status.gone(worker);
    if (restart.workerExited(worker, was === 'starting', code, signal)) return;
    const next = crashes.afterExit(worker, code, signal, {
      wasServing: was === 'serving',
      nobodyServes: pool.serving.length === 0,
      noneStarting: pool.inState('starting').length === 0,
    });
    if (next.action === 'stop') stop(next.code);
    else if (next.action === 'replace') pool.replaceAfter(next.pauseMs);
  }

  function stop(code: number): void {
    if (pool.stopping) return;
    exitCode = code;
    connections.close();
    pool.stop('SIGTERM');
    setTimeout(() => {
      pool.stop('SIGKILL');
      removeLock();
      process.exit(exitCode || 1);
    }, STOP_TIMEOUT_MS).unref();
    finishIfDone();
  }

  /** The workers leave the shared lock in place; it goes when the last of them has stopped. */
  function removeLock(): void {
    if (!lockFile) return;
    try {
      if (Number(readFileSync(lockFile, 'utf8').trim()) === process.pid) rmSync(lockFile, { force: true });
    } catch {
      // Gone already, or on a disk that turned read-only: the next start takes over a lock whose owner is gone.
    }
  }

  function finishIfDone(): void {
    if (pool.running().length > 0) return;
    removeLock();
    process.exit(exitCode);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));
  pool.spawn({ first: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) supervise();
