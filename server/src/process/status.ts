import type { SiteProcesses, SupervisorMessage, WorkerReport } from './protocol';
import type { WorkerRecord } from './worker-record';

/** How long the status of every worker may take to gather; a worker that does not answer is listed without figures. */
const REPORT_TIMEOUT_MS = 1000;

interface Gathering {
  workers: SiteProcesses['workers'];
  /** Workers asked for their figures that have not answered yet. */
  pending: Set<WorkerRecord>;
  finish(): void;
}

/**
 * The Node.js panel's status: only the supervisor knows every worker, so a worker asking for
 * the site's figures gets them from here, gathered from each serving worker on demand (nothing
 * is kept between two requests).
 */
export class StatusGathering {
  private readonly gatherings = new Map<number, Gathering>();
  private nextId = 1;

  constructor(private readonly send: (worker: WorkerRecord, message: SupervisorMessage) => void) {}

  /** `asker` sent `status` `id`: asks every serving worker for a `report`, then answers it. */
  gather(asker: WorkerRecord, id: number, serving: readonly WorkerRecord[]): void {
    const workers = [...serving];
    const key = this.nextId++;
    const finish = () => {
      if (!this.gatherings.has(key)) return;
      this.gatherings.delete(key);
      clearTimeout(timer);
      const memory = process.memoryUsage();
      this.send(asker, {
        type: 'status',
        id,
        workers: gathering.workers,
        supervisor: { pid: process.pid, uptime: Math.round(process.uptime() * 1000), rss: memory.rss },
      });
    };
    const gathering: Gathering = {
      workers: workers.map((worker) => ({ pid: worker.pid })),
      pending: new Set(workers),
      finish,
    };
    const timer = setTimeout(finish, REPORT_TIMEOUT_MS);
    this.gatherings.set(key, gathering);
    if (workers.length === 0) finish();
    else for (const worker of workers) this.send(worker, { type: 'report', id: key });
  }

  /** A worker's figures for the gathering `id`. */
  report(from: WorkerRecord, id: number, report: WorkerReport): void {
    const gathering = this.gatherings.get(id);
    if (!gathering) return;
    const index = gathering.workers.findIndex((worker) => worker.pid === from.pid);
    if (index >= 0) gathering.workers[index] = { pid: from.pid, ...report };
    this.answered(gathering, from);
  }

  /** A worker stopped: it will not answer. */
  gone(worker: WorkerRecord): void {
    for (const gathering of this.gatherings.values()) {
      if (gathering.pending.has(worker)) this.answered(gathering, worker);
    }
  }

  private answered(gathering: Gathering, worker: WorkerRecord): void {
    gathering.pending.delete(worker);
    if (gathering.pending.size === 0) gathering.finish();
  }
}
