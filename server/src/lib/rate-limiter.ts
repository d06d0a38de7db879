/**
 * Counters for rate limits, one fixed window per key. Callers use only this interface, so the
 * in-memory backing below can be swapped for a shared one (counters in the store, when several
 * server processes sit behind one nginx) without touching them; hence the promises.
 */
export interface RateCounters {
  /**
   * Counts one attempt for `key` unless it is already at `max` in its window. Answers the
   * seconds to wait when over the limit (then nothing is counted), else 0.
   */
  hit(key: string, max: number, windowMs: number): Promise<number>;
  /** How many attempts `key` has in its current window, and the seconds until that window ends. */
  peek(key: string): Promise<{ count: number; wait: number }>;
  /** Takes back one attempt (an answer that cost nothing, such as a 304). */
  refund(key: string): Promise<void>;
  /** Forgets `key` (a success that ends a run of failures). */
  reset(key: string): Promise<void>;
  /** Forgets everything (the rule changed). */
  clear(): Promise<void>;
}

/** Enough for every client of a busy site at once, and at most about 10 MB. */
export const DEFAULT_MAX_KEYS = 50_000;

const SWEEP_EVERY_MS = 60_000;

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed windows in this process's memory, never more than `maxKeys` of them whatever the number
 * of clients: expired windows are swept out now and then, and past the ceiling the oldest go. Dropping the oldest lets
 * someone with more than `maxKeys` addresses reset counters, but only by using up that many
 * addresses, which the limits per address already make costly.
 */
export class MemoryRateCounters implements RateCounters {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly maxKeys = DEFAULT_MAX_KEYS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The number of windows held: never above `maxKeys`. */
  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, max: number, windowMs: number): Promise<number> {
    const now = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      if (entry) this.windows.delete(key);
      this.makeRoom(now);
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return max >= 1 ? 0 : Math.max(1, Math.ceil(windowMs / 1000));
    }
    if (entry.count >= max) return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
    entry.count += 1;
    return 0;
  }

  async peek(key: string): Promise<{ count: number; wait: number }> {
    const now = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) return { count: 0, wait: 0 };
    return { count: entry.count, wait: Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) };
  }

  async refund(key: string): Promise<void> {
    const entry = this.windows.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async clear(): Promise<void> {
    this.windows.clear();
  }

  private lastSweep = 0;

  /**
   * Keeps the map under its ceiling at a constant cost per new window: expired windows are swept
   * out at most once a minute, and when the map is still full its oldest window goes (Map keeps
   * insertion order, so that is the first key).
   */
  private makeRoom(now: number): void {
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
    }
    while (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
  }
}
