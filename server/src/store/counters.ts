/**
 * Counters with a fixed window each, shared by every server process of a site: the rate limits'
 * part of the store port (`Store.counters`). They change on every counted request, so neither
 * adapter pays for durability here: the embedded store keeps them in their own SQLite file
 * without fsync (sqlite/counters.ts), MongoDB in a collection of its own with atomic updates and
 * a TTL index (mongo/counters.ts). Losing the last counts in a power cut only gives clients a
 * fresh window; nothing else depends on them.
 */
export interface CounterWindow {
  count: number;
  /** When the window ends, in ms since the epoch. */
  resetAt: number;
}

export interface CounterAdded extends CounterWindow {
  /** False when adding would have taken the count above `max`: then nothing changed. */
  added: boolean;
}

export interface CounterStore {
  /**
   * Adds `amount` (negative to take some back, never below 0) to `key`'s running window, or
   * starts a window of `windowMs` with it when none runs, unless the count would go above `max`.
   * One atomic step whatever the number of processes calling at once. A window started here
   * keeps `limit`, the count from which its key's limit is enforced: `max` unless the caller
   * compares the count itself (a batched count added with no `max`, a count read to decide).
   */
  add(key: string, amount: number, max: number, windowMs: number, limit?: number): Promise<CounterAdded>;
  /** The running window of `key`, or null when none runs. */
  get(key: string): Promise<CounterWindow | null>;
  delete(key: string): Promise<void>;
  /**
   * Deletes the ended windows, then, when more than `maxKeys` are left, those ending soonest
   * among the windows below their limit. A window at or over its limit is never dropped, as that
   * would lift a limit being enforced (a locked account would be let in again): only such
   * windows may keep the count above `maxKeys`, and each costs a client its whole budget, which
   * the limits per address bound. Each adapter runs it by itself every minute; it is here for
   * the tests and the contract.
   */
  sweep(maxKeys?: number): Promise<void>;
}

/** Enough for every client of a busy site at once (each row is under 100 bytes). */
export const MAX_COUNTERS = 200_000;
/** How often each process sweeps the ended windows away. */
export const SWEEP_EVERY_MS = 60_000;
