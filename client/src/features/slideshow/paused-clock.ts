interface Pausable {
  pause(): void;
  resume(): void;
  cancel(): void;
}

/**
 * The slideshow's time: timeouts that stop counting while the tab is hidden (and go on from
 * where they stopped when it shows again), all cancelled at once when the show ends.
 */
export class PausedClock {
  private readonly pausables = new Set<Pausable>();
  private hiddenNow = false;

  get hidden(): boolean {
    return this.hiddenNow;
  }

  setHidden(hidden: boolean): void {
    this.hiddenNow = hidden;
    for (const p of this.pausables) (hidden ? p.pause : p.resume)();
  }

  cancelAll(): void {
    for (const p of [...this.pausables]) p.cancel();
  }

  /** A timeout that stops counting while the tab is hidden. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let remaining = ms;
      let startedAt = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        this.pausables.delete(entry);
        resolve();
      };
      const entry: Pausable = {
        pause: () => {
          clearTimeout(timer);
          remaining -= Date.now() - startedAt;
        },
        resume: () => {
          startedAt = Date.now();
          timer = setTimeout(finish, Math.max(0, remaining));
        },
        cancel: () => clearTimeout(timer),
      };
      this.pausables.add(entry);
      if (!this.hiddenNow) entry.resume();
    });
  }
}
