import { describe, expect, it } from 'vitest';
import { formatDay, formatMoment } from './dates';

describe('the site’s one way of writing dates', () => {
  it('writes a day as "5 December 2026", whatever it is given', () => {
    expect(formatDay('2026-12-05')).toBe('5 December 2026');
    expect(formatDay('2026-12-05T00:00:00.000Z')).toBe('5 December 2026');
    expect(formatDay(new Date(Date.UTC(2026, 11, 5, 23, 59)))).toBe('5 December 2026');
  });

  it('writes a moment with the same day words and the time', () => {
    expect(formatMoment('2026-12-05T12:00:00.000Z')).toMatch(/^\d{1,2} December 2026, \d{2}:\d{2}$/);
  });
});
