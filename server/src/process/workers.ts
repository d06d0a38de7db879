import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { SupervisorMessage, WorkerMessage } from './protocol';
import { warn } from './supervisor-log';
import type { WorkerRecord, WorkerState } from './worker-record';

/** A new worker that has not said where it listens by then is taken as stuck. */
const HELLO_TIMEOUT_MS = 60_000;

/**
 * How a worker is run: `entry` is the server's main module and `execArgv` the node options it
 * runs with, from the folder `cwd`.
 */
export interface WorkerCommand {
  entry: string;
  execArgv: string[];
  cwd: string;
}

/** What the supervisor hears from its workers. */
export interface WorkerEvents {
  message(worker: WorkerRecord, message: WorkerMessage, handle: unknown): void;
  /** `was` is the state it was in when it exited (it is `gone` now). */
  exit(worker: WorkerRecord, was: WorkerState, code: number | null, signal: NodeJS.Signals | null): void;
}

/**
 * The site's workers: starts them, knows which serve and which is next in turn for a connection,
 * retires them, and keeps as many as the site wants.
 */
export class WorkerPool {
  /** Ready workers, in the order connections go to them. */
  readonly serving: WorkerRecord[] = [];
  /** Every worker not gone yet, whatever its state. */
  private readonly records = new Set<WorkerRecord>();
  /** How many workers the site runs: told by the first worker of each start and restart. */
  wanted = 1;
  private turn = 0;
  /** Set once the supervisor stops: no worker is started any more. */
  stopping = false;

  constructor(
    private readonly command: WorkerCommand,
    private readonly events: WorkerEvents,
    /** True while a rolling restart runs: it decides alone which workers start and go. */
    private readonly restarting: () => boolean,
  ) {}

  spawn({ first = false, restart = null }: { first?: boolean; restart?: number | null } = {}): WorkerRecord {
    const { entry, execArgv, cwd } = this.command;
    const child = spawn(process.execPath, [...execArgv, entry], {
      cwd,
      env: this.environment(),
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    const worker: WorkerRecord = {
      child,
      pid: child.pid ?? 0,
      state: 'starting',
      first,
      restart,
      cannotListen: false,
    };
    this.records.add(worker);
    worker.helloTimer = setTimeout(() => {
      warn(`worker ${worker.pid} did not start within ${HELLO_TIMEOUT_MS / 1000} s; stopping it.`);
      worker.fatal = 'The new server process did not start in time.';
      child.kill('SIGKILL');
    }, HELLO_TIMEOUT_MS);
    child.on('message', (message, handle) => this.events.message(worker, message as WorkerMessage, handle));
    child.on('exit', (code, signal) => {
      clearTimeout(worker.helloTimer);
      this.events.exit(worker, this.gone(worker), code, signal);
    });
    child.on('error', (error) => warn(`worker error: ${error.message}`));
    return worker;
  }

  send(worker: WorkerRecord, message: SupervisorMessage): void {
    if (worker.child.connected)
      worker.child.send(message, (error) => error && warn(`could not reach a worker: ${error.message}`));
  }

  /**
   * Password hashes run on libuv's thread pool (4 threads by default, sized when a process
   * starts). The workers of one machine share its cores, so each gets a share of the 4: with 2
   * workers of 4 threads each, sign-ins were 5 to 10 % fewer than with 1 worker, and with 2 threads
   * each a little more (bench/sign-in.bench.ts). Before the first worker has said how many the site
   * runs, WORKERS (else one per core, at most 4, as config.ts resolves 0) is the guess.
   */
  private environment(): NodeJS.ProcessEnv {
    if (process.env.UV_THREADPOOL_SIZE) return process.env;
    const told = this.records.size > 0 || this.restarting();
    const guess = Number(process.env.WORKERS) || Math.min(availableParallelism(), 4);
    const workers = told ? this.wanted : guess;
    return { ...process.env, UV_THREADPOOL_SIZE: String(Math.max(2, Math.ceil(4 / workers))) };
  }

  /** The next serving worker in turn that can still take a connection. */
  next(): WorkerRecord | null {
    for (let tried = 0; tried < this.serving.length; tried++) {
      const worker = this.serving[this.turn++ % this.serving.length]!;
      if (worker.child.connected) return worker;
    }
    return null;
  }

  /** A starting worker is ready: connections go to it from now on. False when it was not starting. */
  ready(worker: WorkerRecord): boolean {
    if (worker.state !== 'starting') return false;
    worker.state = 'serving';
    this.serving.push(worker);
    return true;
  }

  /** Tells a worker to hand its connections back and exit; new connections go to the others. */
  retire(worker: WorkerRecord, message: SupervisorMessage = { type: 'hand-over' }): void {
    this.leaveServing(worker);
    worker.state = 'leaving';
    this.send(worker, message);
  }

  /** Starts workers until the site has as many as it wants (none while restarting or stopping). */
  fill(): void {
    if (this.stopping || this.restarting()) return;
    const starting = this.inState('starting').length;
    // The first worker opens the store alone (it may import the old store's files); the rest follow it.
    if (this.serving.length === 0 && starting > 0) return;
    for (let count = this.serving.length + starting; count < this.wanted; count++) this.spawn();
    if (this.serving.length > this.wanted)
      for (const extra of this.serving.slice(this.wanted)) this.retire(extra);
  }

  /** Replaces a worker that stopped, after `pauseMs`: as the first of a new start when none is left. */
  replaceAfter(pauseMs: number): void {
    setTimeout(() => {
      const noneLeft = this.serving.length === 0 && this.inState('starting').length === 0;
      if (noneLeft && !this.stopping) this.spawn({ first: true });
      else this.fill();
    }, pauseMs);
  }

  inState(state: WorkerState): WorkerRecord[] {
    return [...this.records].filter((worker) => worker.state === state);
  }

  /** The listening sockets ("host:port") that serving and starting workers use. */
  addressesInUse(): Set<string> {
    const keys = [...this.records]
      .filter((worker) => worker.state === 'serving' || worker.state === 'starting')
      .map((worker) => worker.address?.key);
    return new Set(keys.filter((key) => key !== undefined));
  }

  /** Workers whose process has not ended yet. */
  running(): WorkerRecord[] {
    return [...this.records].filter(
      (worker) => worker.child.exitCode === null && worker.child.signalCode === null,
    );
  }

  /** No worker starts any more; each running one is sent `signal`. */
  stop(signal: NodeJS.Signals): void {
    this.stopping = true;
    for (const worker of this.running()) worker.child.kill(signal);
  }

  /** The worker exited: answers the state it was in. */
  private gone(worker: WorkerRecord): WorkerState {
    const was = worker.state;
    this.records.delete(worker);
    this.leaveServing(worker);
    worker.state = 'gone';
    return was;
  }

  private leaveServing(worker: WorkerRecord): void {
    const index = this.serving.indexOf(worker);
    if (index >= 0) this.serving.splice(index, 1);
  }
}
