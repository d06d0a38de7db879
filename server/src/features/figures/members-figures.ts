import type { FiguresQuery, MembersFigures, MembersSummary } from '@common/schemas/figures';
import type { FigureDayDoc } from './figure-days.repository';
import { COUNTERS } from './member-events';
import { addDays, previousPeriod, stepsOf } from './periods';

/** Members now, as the user record's kept counts say (administrators left out). */
export interface MembersNow {
  total: number;
  paid: number;
}

type Counts = Record<string, number>;
const read = (counts: Counts | undefined, name: string) => counts?.[name] ?? 0;

/**
 * The members at the end of every day from `first` to `last`, worked back from the members now
 * (`today`'s end): each day before is the day after less what the day after added. Anchored to
 * the kept counts, so a change the roll-ups missed moves past days, never today.
 */
function levels(byDay: Map<string, Counts>, now: MembersNow, today: string, first: string, last: string) {
  const level = new Map<string, MembersNow>();
  let current = { ...now };
  let day = last > today ? last : today;
  while (day >= first) {
    level.set(day, current);
    const counts = byDay.get(day);
    current = {
      total: current.total - read(counts, COUNTERS.signups) + read(counts, COUNTERS.removed),
      paid:
        current.paid -
        read(counts, COUNTERS.upgrades) +
        read(counts, COUNTERS.cancellations) +
        read(counts, COUNTERS.removedPaid),
    };
    day = addDays(day, -1);
  }
  return level;
}

function summary(byDay: Map<string, Counts>, level: Map<string, MembersNow>, from: string, to: string) {
  const sums = { signups: 0, upgrades: 0, cancellations: 0 };
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const counts = byDay.get(day);
    sums.signups += read(counts, COUNTERS.signups);
    sums.upgrades += read(counts, COUNTERS.upgrades);
    sums.cancellations += read(counts, COUNTERS.cancellations);
  }
  const end = level.get(to) ?? { total: 0, paid: 0 };
  return { total: end.total, paid: end.paid, free: end.total - end.paid, ...sums } satisfies MembersSummary;
}

/**
 * Members over a period, step by step, and the period before it to compare with. `days` holds
 * every roll-up from the day before the previous period up to today.
 */
export function membersFigures(
  query: FiguresQuery,
  days: FigureDayDoc[],
  now: MembersNow,
  today: string,
): MembersFigures {
  const byDay = new Map(days.map((doc) => [doc._id, doc.counts]));
  const previous = previousPeriod(query.from, query.to);
  const level = levels(byDay, now, today, addDays(previous.from, -1), query.to);
  return {
    from: query.from,
    to: query.to,
    step: query.step,
    points: stepsOf(query.from, query.to, query.step).map(({ start, end }) => ({
      start,
      ...summary(byDay, level, start, end),
    })),
    period: summary(byDay, level, query.from, query.to),
    previous: summary(byDay, level, previous.from, previous.to),
  };
}
