import { createHash } from 'node:crypto';
import type { CounterStep, CounterStore } from '../store/counters';

/**
 * Counters for rate limits, one fixed window per key, shared by every server process of the site
 * (they live in the store: `Store.counters`). Two backings: `SharedRateCounters`, one atomic step
 * in the store per call, whether it counts one key or decides several limits of one request
 * together (the sign-in limits: rare, and exact), and `BatchedRateCounters`, which
 * counts in memory and merges into the store in small batches (the general API limit, hit by
 * most requests).
 *
 * Seams, in order: the interfaces (`RateCounters`, `RateRule`, `RateDecisions`), the keys'
 * hashing, `SharedRateCounters` (exact, in the store) and `BatchedRateCounters` (in memory).
 */
export interface RateCounters {
  /**
   * Counts one attempt for `key` unless it is already at `max` in its window. Answers the
   * seconds to wait when over the limit (then nothing is counted), else 0. `limit`, when the
   * caller compares the count itself (a `max` of Infinity), is the count from which it refuses:
   * the store keeps it so that its sweep never drops a window being enforced.
   */
  hit(key: string, max: number, windowMs: number, limit?: number): Promise<number>;
  /** How many attempts `key` has in its current window, and the seconds until that window ends. */
  peek(key: string): Promise<{ count: number; wait: number }>;
  /** Takes back one attempt (an answer that cost nothing, such as a 304). */
  refund(key: string): Promise<void>;
  /** Forgets `key` (a success that ends a run of failures). */
  reset(key: string): Promise<void>;
}

/** One limit of a decision (`RateDecisions.decide`), counted in the limiter's own keys. */
export interface RateRule {
  key: string;
  /** The request is refused when counting it would take the key above this. */
  max: number;
  windowMs: number;
  /** As for `hit`: the count from which the key's limit is enforced, when `max` is Infinity. */
  limit?: number;
  /**
   * Counted only when `key` is new (no try counted in its window) or only when it is not: the
   * first try of an e-mail from an address is the one that brings a new e-mail into the store.
   */
  when?: { key: string; isNew: boolean };
}

/** Counters that decide several limits for one request in one atomic step. */
export interface RateDecisions extends RateCounters {
  /**
   * Counts the request on every rule that applies, or, when one would go above its max, on
   * none: then `refusedBy` is that rule's index and `wait` the seconds until its window ends.
   * Requests decided at once are counted as if they had come one after the other.
   */
  decide(rules: RateRule[]): Promise<{ wait: number; refusedBy: number | null }>;
}

const secondsUntil = (resetAt: number, now = Date.now()) => Math.max(1, Math.ceil((resetAt - now) / 1000));

/**
 * Text a client chooses (an e-mail address) as a part of a key: 22 characters whatever its
 * length (128 bits of its SHA-256), so that every key has a bounded size and the counters hold
 * no address in the clear.
 */
export function hashedKeyPart(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * Every call is one atomic conditional step in the store, so the limit is exact whatever the
 * number of processes: 30 wrong passwords sent through two processes are refused at the same
 * count as through one. `namespace` keeps each limiter's keys apart.
 */
export class SharedRateCounters implements RateDecisions {
  constructor(
    private readonly counters: CounterStore,
    private readonly namespace: string,
  ) {}

  async decide(rules: RateRule[]): Promise<{ wait: number; refusedBy: number | null }> {
    const steps = rules.map(
      ({ key, when, ...rule }): CounterStep => ({
        ...rule,
        key: this.namespace + key,
        amount: 1,
        ...(when ? { when: { key: this.namespace + when.key, isNew: when.isNew } } : {}),
      }),
    );
    const decision = await this.counters.decide(steps);
    if (decision.added || decision.refusedBy === undefined) return { wait: 0, refusedBy: null };
    return {
      wait: secondsUntil(decision.windows[decision.refusedBy]!.resetAt),
      refusedBy: decision.refusedBy,
    };
  }

  async hit(key: string, max: number, windowMs: number, limit = max): Promise<number> {
    const window = await this.counters.add(this.namespace + key, 1, max, windowMs, limit);
    return window.added ? 0 : secondsUntil(window.resetAt);
  }

  async peek(key: string): Promise<{ count: number; wait: number }> {
    const window = await this.counters.get(this.namespace + key);
    return window ? { count: window.count, wait: secondsUntil(window.resetAt) } : { count: 0, wait: 0 };
  }

  async refund(key: string): Promise<void> {
    await this.counters.add(this.namespace + key, -1, Number.POSITIVE_INFINITY, 0);
  }

  async reset(key: string): Promise<void> {
    await this.counters.delete(this.namespace + key);
  }
}

/** How often the counts made in this process are merged into the shared ones. */
export const MERGE_EVERY_MS = 250;
/** Keys remembered in this process at most (their counts live in the store). */
export const DEFAULT_MAX_KEYS = 50_000;

interface Local {
  /** Counted here and not merged yet (negative after refunds). */
  pending: number;
  /** The shared count at the last merge, and when its window ends (0: no window known). */
  shared: number;
  resetAt: number;
  windowMs: number;
  /** The count this process refuses from: kept by the store for its sweep. */
  limit: number;
  /** When this process first counted while no window was known: a new window starts then. */
  firstAt: number;
}

/**
 * Counts in this process's memory and merges the counts into the store every MERGE_EVERY_MS, one
 * `add` per key that changed, so a request costs no store round trip. Each merge answers the
 * key's count from every process together, so the limit holds across processes to within one
 * batch per process (what each counted since its last merge). The map of keys is bounded: keys
 * whose window ended are dropped at each merge, and past `maxKeys` the oldest go (makeRoom).
 */
export class BatchedRateCounters implements RateCounters {
  private readonly local = new Map<string, Local>();
  private timer: NodeJS.Timeout | undefined;
  private merging: Promise<void> = Promise.resolve();

  constructor(
    private readonly counters: CounterStore,
    private readonly namespace: string,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
    private readonly mergeEveryMs = MERGE_EVERY_MS,
  ) {}

  /** The number of keys held in memory: never above `maxKeys`. */
  get size(): number {
    return this.local.size;
  }

  async hit(key: string, max: number, windowMs: number, limit = max): Promise<number> {
    const now = Date.now();
    const entry = this.entry(key, windowMs, now);
    entry.limit = limit;
    if (entry.shared + entry.pending >= max)
      return secondsUntil(entry.resetAt || entry.firstAt + windowMs, now);
    if (entry.resetAt === 0 && entry.pending === 0) entry.firstAt = now;
    entry.pending += 1;
    this.schedule();
    return 0;
  }

  async peek(key: string): Promise<{ count: number; wait: number }> {
    const entry = this.local.get(key);
    if (!entry) return { count: 0, wait: 0 };
    const now = Date.now();
    this.expire(entry, now);
    const count = Math.max(0, entry.shared + entry.pending);
    return { count, wait: count ? secondsUntil(entry.resetAt || entry.firstAt + entry.windowMs, now) : 0 };
  }

  async refund(key: string): Promise<void> {
    const entry = this.local.get(key);
    if (!entry || entry.shared + entry.pending <= 0) return;
    entry.pending -= 1;
    this.schedule();
  }

  async reset(key: string): Promise<void> {
    this.local.delete(key);
    await this.counters.delete(this.namespace + key);
  }

  /** Merges what is left and stops (the server is closing). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.merge();
  }

  /** Merges the counts made here since the last merge; one merge at a time. */
  merge(): Promise<void> {
    this.merging = this.merging.then(() => this.mergeNow());
    return this.merging;
  }

  private async mergeNow(): Promise<void> {
    const now = Date.now();
    const changed: Array<[string, Local, number]> = [];
    for (const [key, entry] of this.local) {
      this.expire(entry, now);
      if (entry.pending !== 0) {
        changed.push([key, entry, entry.pending]);
        entry.pending = 0;
      } else if (entry.resetAt === 0) this.local.delete(key);
    }
    await Promise.all(
      changed.map(async ([key, entry, amount]) => {
        // A window the store starts now began with this process's first count, not at the merge.
        const windowMs = Math.max(1, entry.windowMs - (now - entry.firstAt));
        try {
          // No maximum in the store: every process's counts are added whatever the total. The
          // limit goes with them, so that the sweep keeps a window over it.
          const window = await this.counters.add(
            this.namespace + key,
            amount,
            Number.POSITIVE_INFINITY,
            windowMs,
            entry.limit,
          );
          entry.shared = window.count;
          entry.resetAt = window.count > 0 ? window.resetAt : 0;
        } catch {
          // The store did not answer: the counts stay here and go with the next merge.
          entry.pending += amount;
          this.schedule();
        }
      }),
    );
  }

  private entry(key: string, windowMs: number, now: number): Local {
    let entry = this.local.get(key);
    if (!entry) {
      this.makeRoom();
      entry = { pending: 0, shared: 0, resetAt: 0, windowMs, limit: Number.POSITIVE_INFINITY, firstAt: now };
      this.local.set(key, entry);
    }
    entry.windowMs = windowMs;
    this.expire(entry, now);
    return entry;
  }

  /** A window that ended counts nothing any more; the store starts the next one at the merge. */
  private expire(entry: Local, now: number): void {
    if (entry.resetAt !== 0 && entry.resetAt <= now) {
      entry.shared = 0;
      entry.resetAt = 0;
    }
  }

  /**
   * Past the ceiling, the oldest keys go (Map keeps insertion order): first those merged already,
   * whose counts are in the store, then, when a flood of new clients fills the map between two
   * merges, the oldest unmerged ones, which lose what they counted since the last merge (only by
   * using up `maxKeys` addresses, which the limits per address already make costly).
   */
  private makeRoom(): void {
    if (this.local.size < this.maxKeys) return;
    for (const [key, entry] of this.local) {
      if (this.local.size < this.maxKeys) return;
      if (entry.pending === 0) this.local.delete(key);
    }
    for (const key of this.local.keys()) {
      if (this.local.size < this.maxKeys) break;
      this.local.delete(key);
    }
    void this.merge();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.merge();
    }, this.mergeEveryMs);
    this.timer.unref();
  }
}
