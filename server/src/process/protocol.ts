// What `npm start`'s supervisor and its workers say to each other over the IPC channel the
// supervisor opens with each worker, and the exit codes a worker ends with. Both sides import
// this module (and the tests), so they cannot drift apart.
import type { WorkerStatus } from '@common/schemas/app-server';

/**
 * A start that failed for a reason a person must fix: one of the server's folders cannot be
 * used (read-only, permission denied, full disk, a file in its place). The server said which in
 * one plain line; the supervisor does not try again. (EX_CANTCREAT from sysexits.h.)
 */
export const FOLDER_EXIT_CODE = 73;

/**
 * Asks whatever runs the server on its own (systemd, a container, a shell loop) to start it
 * again. Under `npm start` the supervisor restarts without it, seamlessly; a worker that ends
 * with it all the same is replaced at once, without a warning. (EX_TEMPFAIL.)
 */
export const RESTART_EXIT_CODE = 75;

/** The settings are wrong (EX_CONFIG): do not restart, a person has to fix the environment. */
export const CONFIG_EXIT_CODE = 78;

/** One worker's figures without its pid (the supervisor knows whose they are). */
export type WorkerReport = Omit<WorkerStatus, 'pid'>;

/** Every worker's figures as the supervisor gathered them, and the supervisor's own. */
export interface SiteProcesses {
  /** A worker that did not answer in time is listed with its pid only. */
  workers: Array<WorkerStatus | { pid: number }>;
  supervisor: { pid: number; uptime: number; rss: number };
}

/** The answer to a restart request: where the server will listen next, or why it cannot restart. */
export type RestartOutcome = { started: true; port: number } | { started: false; message: string };

/** Worker → supervisor. */
export type WorkerMessage =
  /** The address this worker wants, and how many workers the site runs (heeded from the first worker of a start or restart). */
  | { type: 'hello'; host: string; port: number; workers: number }
  /** The store is open (any import done): connections may come. */
  | { type: 'ready' }
  /** Asked for from the console: replace every worker, this one first. */
  | { type: 'restart' }
  /** A connection handed back, its raw handle sent beside the message. */
  | { type: 'handback' }
  /** Why this worker is about to stop, in one line for a person. */
  | { type: 'fatal'; message: string }
  /** The embedded store's lock file, held in the supervisor's name: it removes it when it stops. */
  | { type: 'lock'; file: string }
  /** Asks for every worker's figures; answered by a `status` with the same id. */
  | { type: 'status'; id: number }
  /** This worker's figures, answering a `report`. */
  | { type: 'report'; id: number; report: WorkerReport };

/** Supervisor → worker. */
export type SupervisorMessage =
  /** The address asked for in `hello` is open: open the store, then say `ready`. */
  | { type: 'start' }
  /** The address cannot be opened: the worker says why and exits. */
  | { type: 'abort'; message: string }
  /** A connection to serve, its raw handle sent beside the message. */
  | { type: 'connection' }
  /** The restart this worker asked for is under way (the first new worker serves on `port`): hand over and exit. */
  | { type: 'restart-ok'; port: number }
  | { type: 'restart-failed'; message: string }
  /** This worker is being replaced: hand the connections back and exit. */
  | { type: 'hand-over' }
  /** Asks for this worker's figures (for a `status` being gathered under this id). */
  | { type: 'report'; id: number }
  /** Every worker's figures, answering the worker's `status`. */
  | ({ type: 'status'; id: number } & SiteProcesses);
