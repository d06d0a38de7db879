import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CounterStore } from './counters';
import type { Store } from './store';

/** The store's counters, noting every key a caller names in `used`, so that a test's keys go with it. */
export function notingKeys(counters: CounterStore, used: string[]): CounterStore {
  return new Proxy(counters, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        for (const arg of args.flat()) {
          if (typeof arg === 'string') used.push(arg);
          else if (arg && typeof arg === 'object' && 'key' in arg) used.push(String(arg.key));
        }
        return value.apply(target, args);
      };
    },
  });
}

/**
 * The rate limits' counters (`Store.counters`): the part of the store contract (describeStoreContract
 * runs it on every store) for the port's rate-limit side, kept in a file of its own.
 */
export function describeCountersContract(
  label: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
) {
  describe(`Store contract, counters: ${label}`, () => {
    let store: Store;
    let prefix = '';
    let run = 0;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    beforeEach(() => {
      run += 1;
      prefix = `t${Date.now()}-${run}:`;
    });
    // Each test's keys go with it: a window at its limit outlives any sweep, and would count
    // against the ceiling of the sweeping tests after it.
    const used: string[] = [];
    const keyed = (name: string) => {
      used.push(prefix + name);
      return prefix + name;
    };
    afterEach(async () => {
      for (const key of new Set(used.splice(0))) await store.counters.delete(key);
    });
    it('counts up to the maximum, then refuses without counting, and tells when the window ends', async () => {
      const key = keyed('a');
      const before = Date.now();
      for (let i = 1; i <= 3; i++)
        expect(await store.counters.add(key, 1, 3, 60_000)).toMatchObject({ count: i, added: true });
      const refused = await store.counters.add(key, 1, 3, 60_000);
      expect(refused).toMatchObject({ count: 3, added: false });
      expect(refused.resetAt).toBeGreaterThanOrEqual(before + 60_000);
      expect(refused.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
      expect(await store.counters.get(key)).toEqual({ count: 3, resetAt: refused.resetAt });
      expect(await store.counters.get(keyed('never'))).toBeNull();
    });

    it('adds a batch at once, takes back without going below 0, and forgets a key', async () => {
      const key = keyed('b');
      expect(await store.counters.add(key, 5, Number.POSITIVE_INFINITY, 60_000)).toMatchObject({ count: 5 });
      expect(await store.counters.add(key, -2, Number.POSITIVE_INFINITY, 60_000)).toMatchObject({ count: 3 });
      await store.counters.add(key, -5, Number.POSITIVE_INFINITY, 60_000);
      expect((await store.counters.get(key))?.count ?? 0).toBe(0);
      await store.counters.add(key, 1, 10, 60_000);
      await store.counters.delete(key);
      expect(await store.counters.get(key)).toBeNull();
      // Taking back from nothing starts no window.
      await store.counters.add(key, -1, 10, 60_000);
      expect(await store.counters.get(key)).toBeNull();
    });

    it('counts every one of many adds at once exactly, up to the maximum', async () => {
      const key = keyed('c');
      const results = await Promise.all(
        Array.from({ length: 25 }, () => store.counters.add(key, 1, 10, 60_000)),
      );
      expect(results.filter((r) => r.added)).toHaveLength(10);
      expect((await store.counters.get(key))?.count).toBe(10);
    });

    it('decides several counters in one step: all of them or none, a step taken only when a key is (not) new', async () => {
      const [a, b, gate] = [keyed('da'), keyed('db'), keyed('dgate')];
      const step = (key: string, amount: number, max: number) => ({ key, amount, max, windowMs: 60_000 });
      await store.counters.add(b, 1, 2, 60_000);
      // Refused by its second step: the first is not counted either, and the answer says which.
      const refused = await store.counters.decide([step(a, 1, 5), step(b, 2, 2)]);
      expect(refused).toMatchObject({ added: false, refusedBy: 1, windows: [{ count: 0 }, { count: 1 }] });
      expect(await store.counters.get(a)).toBeNull();
      expect(await store.counters.get(b)).toMatchObject({ count: 1 });
      // A key that is no step of its own decides which steps are taken.
      const whileNew = { ...step(a, 1, 5), when: { key: gate, isNew: true } };
      const onceKnown = { ...step(a, 10, Number.POSITIVE_INFINITY), when: { key: gate, isNew: false } };
      expect(await store.counters.decide([whileNew, onceKnown])).toMatchObject({
        added: true,
        windows: [{ count: 1 }, { count: 1 }],
      });
      await store.counters.add(gate, 1, 5, 60_000);
      expect(await store.counters.decide([whileNew, onceKnown])).toMatchObject({
        added: true,
        windows: [{ count: 11 }, { count: 11 }],
      });
    });

    it('counts many decisions over the same keys asked for at once as if one came after the other', async () => {
      const shared = keyed('dshared');
      const own = Array.from({ length: 12 }, (_, i) => keyed(`down${i}`));
      const decisions = await Promise.all(
        own.map((key) =>
          store.counters.decide([
            { key, amount: 1, max: 1, windowMs: 60_000 },
            { key: shared, amount: 1, max: 8, windowMs: 60_000 },
          ]),
        ),
      );
      expect(decisions.filter((d) => d.added)).toHaveLength(8);
      expect(decisions.filter((d) => !d.added).every((d) => d.refusedBy === 1)).toBe(true);
      expect((await store.counters.get(shared))?.count).toBe(8);
      const counted = await Promise.all(own.map((key) => store.counters.get(key)));
      expect(counted.map((w) => w !== null)).toEqual(decisions.map((d) => d.added));
    });

    it('starts a fresh window once the old one has ended', async () => {
      const key = keyed('d');
      await store.counters.add(key, 1, 1, 50);
      expect((await store.counters.add(key, 1, 1, 50)).added).toBe(false);
      await sleep(80);
      expect(await store.counters.get(key)).toBeNull();
      expect(await store.counters.add(key, 1, 1, 50)).toMatchObject({ count: 1, added: true });
    });

    it('sweeps ended windows away and keeps no more than the ceiling, dropping those ending soonest', async () => {
      await store.counters.sweep(0);
      await store.counters.add(keyed('ended'), 1, 10, 20);
      for (let i = 0; i < 5; i++) await store.counters.add(keyed(`k${i}`), 1, 10, 60_000 + i * 1000);
      await sleep(40);
      await store.counters.sweep(3);
      expect(await store.counters.get(keyed('ended'))).toBeNull();
      const left = await Promise.all([0, 1, 2, 3, 4].map((i) => store.counters.get(keyed(`k${i}`))));
      expect(left.map((w) => w !== null)).toEqual([false, false, true, true, true]);
    });

    it('never drops a window at its limit to keep to the ceiling, however soon it ends', async () => {
      await store.counters.sweep(0);
      // At its maximum; at the limit kept for a count its caller compares; below its maximum.
      const locked = keyed('locked');
      for (let i = 0; i < 2; i++) await store.counters.add(locked, 1, 2, 30_000);
      const compared = keyed('compared');
      await store.counters.add(compared, 3, Number.POSITIVE_INFINITY, 30_000, 3);
      const below = keyed('below');
      await store.counters.add(below, 1, 2, 30_000);
      const later = [0, 1, 2].map((i) => keyed(`later${i}`));
      for (const [i, key] of later.entries()) await store.counters.add(key, 1, 10, 60_000 + i * 1000);
      // Six windows for three places: of those below their limit, the three ending soonest go.
      await store.counters.sweep(3);
      expect(await store.counters.get(locked)).toMatchObject({ count: 2 });
      expect((await store.counters.add(locked, 1, 2, 30_000)).added).toBe(false);
      expect(await store.counters.get(compared)).toMatchObject({ count: 3 });
      expect(await store.counters.get(below)).toBeNull();
      const left = await Promise.all(later.map((key) => store.counters.get(key)));
      expect(left.map((w) => w !== null)).toEqual([false, false, true]);
      // Taken back below its limit, a window may go again.
      await store.counters.add(compared, -1, Number.POSITIVE_INFINITY, 30_000);
      await store.counters.sweep(2);
      expect(await store.counters.get(compared)).toBeNull();
      expect(await store.counters.get(locked)).toMatchObject({ count: 2 });
    });
  });
}
