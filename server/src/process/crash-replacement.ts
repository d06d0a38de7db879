import { CONFIG_EXIT_CODE, FOLDER_EXIT_CODE, RESTART_EXIT_CODE } from './protocol';
import { warn } from './supervisor-log';
import type { WorkerRecord } from './worker-record';

/** After more crashes than this within a minute, a worker is not replaced any more. */
const MAX_CRASHES_A_MINUTE = 5;

/** What the supervisor does once a worker stopped that nobody asked to stop. */
export type AfterExit =
  /** Stop the supervisor (and so the site) with this exit code. */
  | { action: 'stop'; code: number }
  /** The others go on serving without it. */
  | { action: 'go-on' }
  /** Start another after this pause. */
  | { action: 'replace'; pauseMs: number };

/** The site around the worker that stopped, once it is no longer counted. */
export interface SiteAfterExit {
  wasServing: boolean;
  nobodyServes: boolean;
  noneStarting: boolean;
}

/**
 * A worker that stops unexpectedly is replaced, with a growing pause; after 5 crashes in a
 * minute it is not replaced any more while others serve, and the supervisor gives up when none
 * does. A worker that says a person must fix something (its settings, a folder) is not started
 * again: it would only fail the same way.
 */
export class CrashReplacement {
  private crashes: number[] = [];

  afterExit(
    worker: WorkerRecord,
    code: number | null,
    signal: NodeJS.Signals | null,
    site: SiteAfterExit,
  ): AfterExit {
    if (site.nobodyServes && site.noneStarting) {
      // Stopped on purpose (a signal sent to it alone).
      if (site.wasServing && code === 0) return { action: 'stop', code: 0 };
      if (code === CONFIG_EXIT_CODE) {
        warn('the server cannot start until the problem above is fixed; not starting it again.');
        return { action: 'stop', code: CONFIG_EXIT_CODE };
      }
      if (code === FOLDER_EXIT_CODE) {
        warn('the server cannot use one of its folders (see the line above); not starting it again.');
        return { action: 'stop', code: FOLDER_EXIT_CODE };
      }
      if (worker.cannotListen) return { action: 'stop', code: 1 };
    }
    if (code === CONFIG_EXIT_CODE || code === FOLDER_EXIT_CODE) {
      warn(`worker ${worker.pid} cannot start (see the line above); the others go on serving without it.`);
      return { action: 'go-on' };
    }
    const now = Date.now();
    this.crashes = [...this.crashes.filter((at) => now - at < 60_000), now];
    if (this.crashes.length > MAX_CRASHES_A_MINUTE) {
      if (site.nobodyServes) {
        warn('the server keeps stopping; giving up.');
        return { action: 'stop', code: 1 };
      }
      warn('workers keep stopping; not replacing them for now.');
      return { action: 'go-on' };
    }
    if (code !== RESTART_EXIT_CODE) {
      warn(`worker ${worker.pid} stopped unexpectedly (${code ?? signal}); starting another.`);
    }
    const pauseMs = code === RESTART_EXIT_CODE ? 0 : 250 * 2 ** (this.crashes.length - 1);
    return { action: 'replace', pauseMs };
  }
}
