import { AppError } from '../lib/app-error';

/**
 * Lets a store stop taking writes while its data is copied to another store, so that nothing is
 * acknowledged on the old store after the copy began (it would be missing from the new one).
 * Reads go on. A refused write is answered 503: the caller was told nothing was saved.
 */
export class WriteGate {
  private inFlight = 0;
  private pausedFor: string | null = null;
  private drained: Array<() => void> = [];

  async run<R>(write: () => Promise<R>): Promise<R> {
    if (this.pausedFor !== null) throw new AppError('UNAVAILABLE', this.pausedFor);
    this.inFlight += 1;
    try {
      return await write();
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  /**
   * Refuses new writes with `reason`, then resolves once the writes already under way have
   * finished. The function it resolves with lets writes in again.
   */
  async pause(reason: string): Promise<() => void> {
    if (this.pausedFor !== null) throw new AppError('CONFLICT', this.pausedFor);
    this.pausedFor = reason;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    return () => {
      this.pausedFor = null;
    };
  }
}
