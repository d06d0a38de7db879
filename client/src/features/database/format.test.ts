import { describe, expect, it } from 'vitest';
import { formatBytes, formatUptimeHours } from './format';

describe('formatBytes', () => {
  it('uses B, KB, MB, GB and TB, and stops at TB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KB');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(35_126_094)).toBe('33.5 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatBytes(300 * 1024 ** 4)).toBe('300 TB');
    expect(formatBytes(4096 * 1024 ** 4)).toBe('4096 TB');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });
});

describe('formatUptimeHours', () => {
  it('shows seconds as hours', () => {
    expect(formatUptimeHours(0)).toBe('0.0 hours');
    expect(formatUptimeHours(5400)).toBe('1.5 hours');
    expect(formatUptimeHours(3600 * 250)).toBe('250 hours');
  });
});
