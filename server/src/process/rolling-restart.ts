import { log, warn } from './supervisor-log';
import type { WorkerRecord } from './worker-record';
import type { WorkerPool } from './workers';

interface Roll {
  /** Numbers the restarts: the workers a restart starts carry it (WorkerRecord.restart). */
  id: number;
  /** The worker that asked (from the console): it goes first, and answers the console. */
  requester: WorkerRecord;
  /** Workers with the old settings still to replace, in the order they go. */
  old: WorkerRecord[];
  /** The requester has been told that the restart is under way. */
  answered: boolean;
}

/**
 * A restart asked for from the console replaces the workers one at a time: a new worker starts
 * and is ready before an old one hands its connections back (idle ones at once, busy ones right
 * after their answer) and exits. The worker that asked goes first, so the console gets its answer
 * as soon as the first new worker serves. A changed port is opened beside the old one, which
 * closes once no worker of the old settings is left.
 */
export class RollingRestart {
  private roll: Roll | null = null;
  private count = 0;

  constructor(
    private readonly pool: WorkerPool,
    /** Closes the listening sockets that no serving or starting worker uses any more. */
    private readonly closeUnusedListeners: () => void,
  ) {}

  get running(): boolean {
    return this.roll !== null;
  }

  start(requester: WorkerRecord): void {
    const { pool } = this;
    if (this.roll || pool.stopping || !pool.serving.includes(requester)) {
      pool.send(requester, { type: 'restart-failed', message: 'A restart is already in progress.' });
      return;
    }
    const count = pool.serving.length;
    log(`restarting ${count === 1 ? 'the worker' : `${count} workers, one at a time`}…`);
    this.roll = {
      id: ++this.count,
      requester,
      old: [requester, ...pool.serving.filter((worker) => worker !== requester)],
      answered: false,
    };
    pool.spawn({ first: true, restart: this.roll.id });
  }

  /** A worker became ready while this restart runs. */
  workerReady(worker: WorkerRecord): void {
    if (!this.roll) return;
    if (worker.restart === this.roll.id) this.retireOne(this.roll);
    // Started before the restart began (a crash's replacement, the site's own start): it has the old settings too.
    else this.roll.old.push(worker);
  }

  /**
   * A worker exited while this restart runs. True when that ends the restart: a new worker
   * stopped before it was ready, so the old workers go on serving.
   */
  workerExited(
    worker: WorkerRecord,
    wasStarting: boolean,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): boolean {
    const roll = this.roll;
    if (!roll) return false;
    if (wasStarting && worker.restart === roll.id) {
      const reason = worker.fatal ?? `The new server process stopped while starting (${code ?? signal}).`;
      if (!roll.answered) this.pool.send(roll.requester, { type: 'restart-failed', message: reason });
      else warn(`restart stopped half-way: ${reason}`);
      this.roll = null;
      this.closeUnusedListeners();
      return true;
    }
    const index = roll.old.indexOf(worker);
    if (index >= 0) roll.old.splice(index, 1);
    return false;
  }

  /** One step: a new worker is ready (the last one serving), so one old worker goes. */
  private retireOne(roll: Roll): void {
    const { pool } = this;
    const old = roll.old.shift();
    if (old) {
      if (old === roll.requester) {
        pool.retire(old, { type: 'restart-ok', port: pool.serving.at(-1)!.address!.port });
        roll.answered = true;
      } else if (pool.serving.includes(old)) pool.retire(old);
    }
    const ofThisRestart = (worker: WorkerRecord) => worker.restart === roll.id;
    const fresh = [...pool.serving, ...pool.inState('starting')].filter(ofThisRestart).length;
    if (roll.old.length > 0 && fresh < pool.wanted) {
      pool.spawn({ restart: roll.id });
      return;
    }
    // Fewer workers wanted than before: the old ones left over go now.
    for (const extra of roll.old.splice(0)) if (pool.serving.includes(extra)) pool.retire(extra);
    this.roll = null;
    log('restart finished');
    this.closeUnusedListeners();
    pool.fill();
  }
}
