import type { FiguresQuery, MembersFigures, MembersSummary } from '@common/schemas/figures';
import type { FigureDayDoc } from './figure-days.repository';
import { COUNTERS } from './member-events';
import { dayNumber, previousPeriod, stepsOf } from './periods';

/** Members now, as the user record's kept counts say (administrators left out). */
export interface MembersNow {
  total: number;
  paid: number;
}

const SUMMED = ['signups', 'upgrades', 'cancellations'] as const;

type Counts = Record<string, number>;
/** Sign-ups, upgrades, cancellations, removed, removed paid. */
type DayCounters = readonly [number, number, number, number, number];
const countersOf = new WeakMap<Counts, DayCounters>();

/**
 * A day's sign-ups, upgrades, cancellations, removed and removed paid members, read once per
 * roll-up read: the repository keeps settled days a minute, and a roll-up holds every source's and
 * price's counters too, so ten years of them are not looked up by name again at every request.
 */
function membersCounters(counts: Counts): DayCounters {
  let known = countersOf.get(counts);
  if (!known) {
    const read = (name: string) => counts[name] ?? 0;
    known = [
      read(COUNTERS.signups),
      read(COUNTERS.upgrades),
      read(COUNTERS.cancellations),
      read(COUNTERS.removed),
      read(COUNTERS.removedPaid),
    ];
    countersOf.set(counts, known);
  }
  return known;
}

/**
 * Members over a period, step by step, and the period before it to compare with. `days` holds
 * every roll-up from the day before the previous period up to today. The members at the end of
 * each day are worked back from the members now (`today`'s end): each day before is the day
 * after less what the day after added. Anchored to the kept counts, so a change the roll-ups
 * missed moves past days, never today. Days are walked as numbers, and sums read from running
 * totals, so ten years by day cost a few milliseconds.
 */
export function membersFigures(
  query: FiguresQuery,
  days: FigureDayDoc[],
  now: MembersNow,
  today: string,
): MembersFigures {
  const previous = previousPeriod(query.from, query.to);
  const first = dayNumber(previous.from) - 1;
  const last = Math.max(dayNumber(query.to), dayNumber(today));
  const size = last - first + 1;
  const at = (day: string) => dayNumber(day) - first;
  const net = { total: new Float64Array(size), paid: new Float64Array(size) };
  const running = Object.fromEntries(SUMMED.map((name) => [name, new Float64Array(size + 1)])) as Record<
    (typeof SUMMED)[number],
    Float64Array
  >;
  for (const { _id, counts } of days) {
    const index = at(_id);
    if (index < 0 || index >= size) continue;
    const [signups, upgrades, cancellations, removed, removedPaid] = membersCounters(counts);
    net.total[index] = signups - removed;
    net.paid[index] = upgrades - cancellations - removedPaid;
    running.signups[index + 1] = signups;
    running.upgrades[index + 1] = upgrades;
    running.cancellations[index + 1] = cancellations;
  }
  for (const name of SUMMED) for (let i = 1; i <= size; i++) running[name][i]! += running[name][i - 1]!;
  const total = new Float64Array(size);
  const paid = new Float64Array(size);
  const todayAt = Math.min(size - 1, at(today));
  for (let i = size - 1; i >= 0; i--) {
    // Days after today have nothing yet: they read as today.
    total[i] = i >= todayAt ? now.total : total[i + 1]! - net.total[i + 1]!;
    paid[i] = i >= todayAt ? now.paid : paid[i + 1]! - net.paid[i + 1]!;
  }
  const summary = (from: string, to: string): MembersSummary => {
    const [start, end] = [at(from), at(to)];
    const sum = (name: (typeof SUMMED)[number]) => running[name][end + 1]! - running[name][start]!;
    return {
      total: total[end]!,
      paid: paid[end]!,
      free: total[end]! - paid[end]!,
      signups: sum('signups'),
      upgrades: sum('upgrades'),
      cancellations: sum('cancellations'),
    };
  };
  return {
    from: query.from,
    to: query.to,
    step: query.step,
    points: stepsOf(query.from, query.to, query.step).map(({ start, end }) => ({
      start,
      ...summary(start, end),
    })),
    period: summary(query.from, query.to),
    previous: summary(previous.from, previous.to),
  };
}
