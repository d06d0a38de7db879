import { describe, expect, it } from 'vitest';
import { formatBytes, formatCpu, formatUptime } from './format';

describe('status formats', () => {
  it('shows uptime in its two largest units', () => {
    expect(formatUptime(0)).toBe('0s');
    expect(formatUptime(59_999)).toBe('59s');
    expect(formatUptime(61_000)).toBe('1m 1s');
    expect(formatUptime(3_600_000 + 5 * 60_000 + 7000)).toBe('1h 5m');
    expect(formatUptime(2 * 86_400_000 + 3 * 3_600_000 + 59 * 60_000)).toBe('2d 3h');
  });

  it('shows sizes from B to GB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(45 * 1024 * 1024)).toBe('45.0 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5120.0 GB');
  });

  it('shows user CPU in seconds, or N/A', () => {
    expect(formatCpu(1_234_567)).toBe('1.23s');
    expect(formatCpu(undefined)).toBe('N/A');
    expect(formatCpu(Number.NaN)).toBe('N/A');
  });
});
