import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../store/sqlite/store';
import type { Store } from '../store/store';
import { clientKey } from './client-address';
import { BatchedRateCounters, SharedRateCounters } from './rate-limiter';

let dir = '';
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rate-limiter-'));
  store = await openEmbeddedStore(dir, () => undefined);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the rate limiter (16.6, 19.3)', () => {
  it('keeps at most its ceiling of keys in memory whatever the number of clients', async () => {
    const counters = new BatchedRateCounters(store.counters, 'ceiling:', 1000);
    for (let i = 0; i < 40_000; i++) {
      await counters.hit(`ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 100, 60_000);
      if (i % 500 === 499) await counters.merge();
    }
    await counters.merge();
    expect(counters.size).toBeLessThanOrEqual(1000);
    // Every client's count is in the store, the ones this process has forgotten too.
    expect((await store.counters.get('ceiling:ip:10.0.0.1'))?.count).toBe(1);
    expect((await counters.peek('ip:10.0.156.63')).count).toBe(1);
    await counters.close();
  });

  it('holds a batched limit across two processes to within one batch each', async () => {
    const a = new BatchedRateCounters(store.counters, 'pair:');
    const b = new BatchedRateCounters(store.counters, 'pair:');
    let allowed = 0;
    // A client whose requests alternate between two processes, merging as they go.
    for (let i = 0; i < 100; i++) {
      if ((await (i % 2 ? a : b).hit('ip:192.0.2.1', 20, 60_000)) === 0) allowed += 1;
      if (i % 10 === 9) await Promise.all([a.merge(), b.merge()]);
    }
    // Each process may be one batch (ten requests here) behind the other's latest counts.
    expect(allowed).toBeGreaterThanOrEqual(20);
    expect(allowed).toBeLessThanOrEqual(30);
    await Promise.all([a.close(), b.close()]);
    expect((await store.counters.get('pair:ip:192.0.2.1'))?.count).toBe(allowed);
  });

  it('counts exactly across processes with the shared counters, each limiter in its own keys', async () => {
    const a = new SharedRateCounters(store.counters, 'exact:');
    const b = new SharedRateCounters(store.counters, 'exact:');
    const other = new SharedRateCounters(store.counters, 'other:');
    await other.hit('k', 10, 60_000);
    const waits = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hit('k', 10, 60_000)),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
    expect(Math.min(...waits.filter((wait) => wait > 0))).toBeGreaterThan(50);
    await a.reset('k');
    expect((await b.peek('k')).count).toBe(0);
    expect((await other.peek('k')).count).toBe(1);
  });

  it('counts IPv6 clients per /64 and IPv4-mapped ones as IPv4', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(clientKey('192.0.2.4')).toBe('192.0.2.4');
  });
});
