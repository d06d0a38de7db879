import type { ActivityLog } from '../activity/activity.service';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { FigureDaysRepository } from './figure-days.repository';
import { COUNTERS, countersOf, dayOf, salesOf } from './member-events';

type Counts = Record<string, number>;

/** What a tier change's Activity entry holds (membership-tier.ts `facts`). */
interface TierFacts {
  membershipTier?: string;
  paidSince?: string | null;
}

/**
 * Fills empty roll-ups once from what is there already (a site that ran before the figures, or
 * data copied in): each member's sign-up on the day they joined, a paid member's upgrade (and
 * their revenue subscription) on the day they became paid, each course sale not refunded on the
 * day of its purchase, and each paid → free change the
 * Activity log still holds (with the upgrade before it). Members deleted before have left no
 * trace: past totals are worked back from today's counts, so they read as if they never joined.
 * One process does it: the first to write the backfill mark.
 */
export async function backfill(
  days: FigureDaysRepository,
  users: UsersRepository,
  activity: Pick<ActivityLog, 'all'>,
  live: boolean,
): Promise<boolean> {
  if (!(await days.isEmpty()) || !(await days.claimBackfill())) return false;
  const byDay = new Map<string, Counts>();
  const add = (at: Date, counts: Counts) => {
    const day = dayOf(at);
    const into = byDay.get(day) ?? {};
    for (const [name, amount] of Object.entries(counts)) into[name] = (into[name] ?? 0) + amount;
    byDay.set(day, into);
  };
  for await (const batch of users.findInBatches({})) {
    for (const user of batch) {
      if (user.role !== 'user') continue;
      const joined: UserDoc = { ...user, membershipTier: 'free', billing: undefined, tierSource: undefined };
      add(user.createdAt, countersOf(null, joined, live));
      if (user.membershipTier === 'paid')
        add(user.paidSince ?? user.createdAt, countersOf(joined, user, live));
      for (const [day, counts] of salesOf({ ...user, purchases: [] }, user, live))
        add(new Date(`${day}T00:00:00Z`), counts);
    }
  }
  for (const entry of await activity.all({ kind: 'membership.tier' })) {
    const before = (entry.before ?? {}) as TierFacts;
    const after = (entry.after ?? {}) as TierFacts;
    if (before.membershipTier !== 'paid' || after.membershipTier !== 'free') continue;
    add(new Date(entry.at), { [COUNTERS.cancellations]: 1 });
    add(before.paidSince ? new Date(before.paidSince) : new Date(entry.at), { [COUNTERS.upgrades]: 1 });
  }
  for (const [day, counts] of byDay) await days.add(day, counts);
  return true;
}
