import type { FigureStep } from '@common/schemas/figures';
import { daysSpanned } from '@common/schemas/figures';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A day's date moved by `days` (YYYY-MM-DD, UTC). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysSpanned(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/**
 * The period cut into steps, each with its first and last day: days; weeks of seven days from
 * `from`; calendar months (the first and last cut at the period's ends).
 */
export function stepsOf(from: string, to: string, step: FigureStep): Array<{ start: string; end: string }> {
  const steps: Array<{ start: string; end: string }> = [];
  let start = from;
  while (start <= to) {
    let end: string;
    if (step === 'day') end = start;
    else if (step === 'week') end = addDays(start, 6);
    else {
      const date = new Date(`${start}T00:00:00Z`);
      end = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    }
    if (end > to) end = to;
    steps.push({ start, end });
    start = addDays(end, 1);
  }
  return steps;
}

/** A day as a number (days since 1970-01-01, UTC): the figures walk days as numbers, not text. */
export function dayNumber(day: string): number {
  return Math.round(Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / DAY_MS);
}
