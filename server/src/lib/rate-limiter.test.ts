import { describe, expect, it } from 'vitest';
import { clientKey } from './client-address';
import { MemoryRateCounters } from './rate-limiter';

describe('the rate limiter (16.6)', () => {
  it('keeps at most its ceiling of windows whatever the number of clients', async () => {
    const counters = new MemoryRateCounters(1000);
    for (let i = 0; i < 40_000; i++)
      await counters.hit(`ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 100, 60_000);
    expect(counters.size).toBeLessThanOrEqual(1000);
    // The newest clients are still counted.
    expect((await counters.peek('ip:10.0.156.63')).count).toBe(1);
  });

  it('drops expired windows before live ones', async () => {
    let now = 0;
    const counters = new MemoryRateCounters(2, () => now);
    await counters.hit('live', 1, 600_000);
    await counters.hit('short', 1, 10);
    now = 61_000; // past the once-a-minute sweep
    await counters.hit('new', 1, 600_000);
    expect(await counters.hit('live', 1, 600_000)).toBeGreaterThan(0);
    expect(counters.size).toBe(2);
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
