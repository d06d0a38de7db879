/**
 * Counters with a fixed window each, shared by every server process of a site: the rate limits'
 * part of the store port (`Store.counters`). They change on every counted request, so neither
 * adapter pays for durability here: the embedded store keeps them in their own SQLite file
 * without fsync (sqlite/counters.ts), MongoDB in a collection of its own, each decision under
 * its keys' locks (mongo/counters.ts). Losing the last counts in a power cut only gives clients a
 * fresh window; nothing else depends on them.
 *
 * A limit decision is one atomic step however many counters it reads and counts (`decide`): both
 * adapters run `decideSteps` below on the windows as they stand, with no other write to those
 * keys in between on any process, and store what it answers.
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

/** One counter of a decision (`CounterStore.decide`). */
export interface CounterStep {
  key: string;
  /** Added to the count (negative to take some back, never below 0). */
  amount: number;
  /** The whole decision is refused, and nothing counted, when this step would go above it. */
  max: number;
  /** The window started when none runs. */
  windowMs: number;
  /** As for `add`: the count from which the window's limit is enforced; `max` unless given. */
  limit?: number;
  /**
   * Taken only when the key named is new to this decision (no running window, or a count of 0,
   * before the decision), or only when it is not: a new e-mail from an address is counted on the
   * first try of that e-mail only. A step whose condition does not hold is left out.
   */
  when?: { key: string; isNew: boolean };
}

export interface CounterDecision {
  /** True when every step was taken; false when one would have gone above its max: nothing changed. */
  added: boolean;
  /** When refused: the index of the first step that would have gone above its max. */
  refusedBy?: number;
  /**
   * Each step's key as it stands after the decision (before it, when refused; a step refused
   * without a running window tells when the window it would have started would end).
   */
  windows: CounterWindow[];
}

export interface CounterStore {
  /**
   * Several counters decided together, in one atomic step whatever the number of processes
   * calling at once: the steps are taken in order on the windows as they stand, all of them or,
   * when one would go above its max, none. Concurrent decisions on the same keys answer as if
   * they had come one after the other.
   */
  decide(steps: CounterStep[]): Promise<CounterDecision>;
  /**
   * Adds `amount` (negative to take some back, never below 0) to `key`'s running window, or
   * starts a window of `windowMs` with it when none runs, unless the count would go above `max`.
   * One atomic step whatever the number of processes calling at once (a decision of one step). A window started here
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

/** A running window as an adapter keeps it, with its limit (Infinity: none). */
export interface StoredWindow extends CounterWindow {
  limit: number;
}

/**
 * What a decision answers and writes, from the running windows of its keys (`before`: absent
 * keys have none): the one rule of both adapters, run where no other write to these keys can
 * come between the read and the write. `changed` holds every window to store as it is now.
 */
export function decideSteps(
  steps: CounterStep[],
  before: ReadonlyMap<string, StoredWindow>,
  now: number,
): { decision: CounterDecision; changed: Map<string, StoredWindow> } {
  const state = new Map(before);
  const changed = new Map<string, StoredWindow>();
  const isNew = (key: string) => (before.get(key)?.count ?? 0) === 0;
  const seen = (window: CounterWindow | undefined): CounterWindow =>
    window ? { count: window.count, resetAt: window.resetAt } : { count: 0, resetAt: now };
  const refused = (index: number, window: CounterWindow): CounterDecision => ({
    added: false,
    refusedBy: index,
    windows: steps.map((step, i) => (i === index ? window : seen(before.get(step.key)))),
  });
  for (const [index, step] of steps.entries()) {
    if (step.when && isNew(step.when.key) !== step.when.isNew) continue;
    const current = state.get(step.key);
    let next: StoredWindow | undefined;
    if (current) {
      if (current.count + step.amount > step.max)
        return { decision: refused(index, seen(current)), changed: new Map() };
      next = { ...current, count: Math.max(0, current.count + step.amount) };
    } else if (step.amount > 0) {
      if (step.amount > step.max)
        return { decision: refused(index, { count: 0, resetAt: now + step.windowMs }), changed: new Map() };
      next = { count: step.amount, resetAt: now + step.windowMs, limit: step.limit ?? step.max };
    }
    if (next) {
      state.set(step.key, next);
      changed.set(step.key, next);
    }
  }
  return { decision: { added: true, windows: steps.map((step) => seen(state.get(step.key))) }, changed };
}

/** `add` as a decision of one step, for the adapters. */
export async function addByDecision(
  counters: Pick<CounterStore, 'decide'>,
  key: string,
  amount: number,
  max: number,
  windowMs: number,
  limit = max,
): Promise<CounterAdded> {
  const { added, windows } = await counters.decide([{ key, amount, max, windowMs, limit }]);
  return { ...windows[0]!, added };
}
