import type { ChildProcess } from 'node:child_process';

/** The listening socket a worker serves on: its "host:port" as asked for, and the port it got (0 asks for any). */
export interface Address {
  key: string;
  port: number;
}

/**
 * Where a worker is in its life:
 *   starting: spawned; says where it wants to listen, then opens the store;
 *   serving:  ready: connections go to it in turn;
 *   leaving:  handing its connections back before it exits (replaced by a restart, or one too many);
 *   gone:     exited.
 */
export type WorkerState = 'starting' | 'serving' | 'leaving' | 'gone';

/** One worker as the supervisor knows it, from its spawn to its exit. */
export interface WorkerRecord {
  readonly child: ChildProcess;
  /** The worker's pid, kept after it exits (its figures and the log name it). */
  readonly pid: number;
  state: WorkerState;
  /** The first worker of a start or restart: its hello says how many workers the site runs. */
  first: boolean;
  /**
   * The rolling restart that started it (their number), so that it is told apart from the
   * workers started before that restart, which have the old settings; null for none.
   */
  restart: number | null;
  /** Set once the address it asked for is open. */
  address?: Address;
  /** Why it stopped or is about to, in one line for a person: told by the worker or by the supervisor. */
  fatal?: string;
  /** Its address could not be opened (someone else holds the port). */
  cannotListen: boolean;
  /** Stops a worker that does not say where it listens in time. */
  helloTimer?: NodeJS.Timeout;
}
