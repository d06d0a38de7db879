import type { FastifyBaseLogger } from 'fastify';
import type { UserChangeWatcher, UserDoc } from '../users/users.repository';
import { counterName, type FigureDaysRepository } from './figure-days.repository';

/** The counters a day's roll-up keeps of members (see docs/figures.md). */
export const COUNTERS = {
  signups: 'signups',
  /** Members deleted, and among them paid ones. */
  removed: 'removed',
  removedPaid: 'removedPaid',
  /** free → paid and paid → free, whoever moved the tier (Stripe or the owner). */
  upgrades: 'upgrades',
  cancellations: 'cancellations',
} as const;

/** A price's revenue subscriptions, added up from the first day: `paying:<price id>`. */
export const payingCounter = (priceId: string) => `paying:${counterName(priceId)}`;
/** Revenue subscriptions that started at a price: `gained:<price id>`. */
export const gainedCounter = (priceId: string) => `gained:${counterName(priceId)}`;
/**
 * Revenue subscriptions that stopped, by price and by the day their member became paid
 * (`lost:<price id>:<YYYY-MM-DD>`), so churn counts only members who paid at a period's start.
 */
export const lostCounter = (priceId: string, paidSince: string) =>
  `lost:${counterName(priceId)}:${paidSince}`;
/** Sign-ups and upgrades by where the member came from: `signups@<source>`, `upgrades@<source>`. */
export const sourceCounter = (what: 'signups' | 'upgrades', source: string) =>
  `${what}@${counterName(source)}`;

/**
 * Course sales (one-time purchases), in the currency's minor units and as a count, counted on the
 * day of the purchase: `sales:<currency>`, `salesCount:<currency>`. A full refund takes the sale
 * off that same day, so a period's sales are the purchases made in it and not given back.
 */
export const salesCounter = (currency: string) => `sales:${counterName(currency.toLowerCase())}`;
export const salesCountCounter = (currency: string) => `salesCount:${counterName(currency.toLowerCase())}`;

/** Where a member came from, once stored on them (the sign-up's source): none yet. */
export const NO_SOURCE = 'direct';

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Statuses whose payments are revenue: a trial is paid access but not revenue. */
const REVENUE_STATUSES = ['active', 'past_due'];

const isMember = (user: UserDoc | null): user is UserDoc => Boolean(user && user.role === 'user');

/**
 * The price a member brings revenue at, or null: a member (not an administrator) made paid by
 * Stripe whose subscription is active or retrying a payment, in live mode. Complimentary members
 * are paid but bring nothing; a trial brings nothing yet; test-mode payments never count.
 */
export function revenuePrice(user: UserDoc | null, live: boolean): string | null {
  if (!live || !isMember(user) || user.membershipTier !== 'paid' || user.tierSource !== 'stripe') return null;
  const billing = user.billing;
  if (!billing?.priceId || !billing.status || !REVENUE_STATUSES.includes(billing.status)) return null;
  return billing.priceId;
}

/** What one change of a member's record adds to the day's counters. */
export function countersOf(
  before: UserDoc | null,
  after: UserDoc | null,
  live: boolean,
): Record<string, number> {
  const add: Record<string, number> = {};
  const plus = (name: string, amount = 1) => {
    add[name] = (add[name] ?? 0) + amount;
  };
  const wasMember = isMember(before);
  const isNow = isMember(after);
  const paidBefore = wasMember && before.membershipTier === 'paid';
  const paidNow = isNow && after.membershipTier === 'paid';
  if (!wasMember && isNow && !before) {
    plus(COUNTERS.signups);
    plus(sourceCounter('signups', after.signupSource?.source ?? NO_SOURCE));
    if (paidNow) plus(COUNTERS.upgrades);
  } else if (wasMember && !after) {
    plus(COUNTERS.removed);
    if (paidBefore) plus(COUNTERS.removedPaid);
  } else if (wasMember && isNow) {
    if (!paidBefore && paidNow) {
      plus(COUNTERS.upgrades);
      plus(sourceCounter('upgrades', after.signupSource?.source ?? NO_SOURCE));
    }
    if (paidBefore && !paidNow) plus(COUNTERS.cancellations);
  }
  const priceBefore = revenuePrice(before, live);
  const priceNow = revenuePrice(after, live);
  if (priceBefore !== priceNow) {
    if (priceBefore) plus(payingCounter(priceBefore), -1);
    if (priceNow) plus(payingCounter(priceNow));
    // A move from one price to another is neither gained nor lost.
    if (priceNow && !priceBefore) plus(gainedCounter(priceNow));
    if (priceBefore && !priceNow) plus(lostCounter(priceBefore, dayOf(before?.paidSince ?? new Date(0))));
  }
  return add;
}

/**
 * What one change of a member's record adds to the course sales, by the day of each purchase: a
 * purchase new and not refunded adds, a purchase now fully refunded takes off. Test-mode payments
 * never count; a deleted member's purchases stay sold.
 */
export function salesOf(
  before: UserDoc | null,
  after: UserDoc | null,
  live: boolean,
): Map<string, Record<string, number>> {
  const byDay = new Map<string, Record<string, number>>();
  if (!live || !isMember(after)) return byDay;
  const counted = new Set(
    (before?.purchases ?? []).filter((one) => !one.refundedAt).map((one) => one.paymentId),
  );
  for (const purchase of after.purchases ?? []) {
    if (purchase.amount === null || !purchase.currency) continue;
    const change = (purchase.refundedAt ? 0 : 1) - (counted.has(purchase.paymentId) ? 1 : 0);
    if (change === 0) continue;
    const day = dayOf(purchase.boughtAt);
    const into = byDay.get(day) ?? {};
    const amount = salesCounter(purchase.currency);
    const count = salesCountCounter(purchase.currency);
    into[amount] = (into[amount] ?? 0) + change * purchase.amount;
    into[count] = (into[count] ?? 0) + change;
    byDay.set(day, into);
  }
  return byDay;
}

/** Every day's additions of one change: today's counters, and course sales on their purchase's day. */
export function additionsOf(
  before: UserDoc | null,
  after: UserDoc | null,
  live: boolean,
  today: string,
): Map<string, Record<string, number>> {
  const byDay = salesOf(before, after, live);
  const into = byDay.get(today) ?? {};
  for (const [name, amount] of Object.entries(countersOf(before, after, live)))
    into[name] = (into[name] ?? 0) + amount;
  byDay.set(today, into);
  return byDay;
}

/**
 * Keeps the daily roll-ups as members change (registered on the user record as its watcher):
 * each sign-up, tier or billing change and deletion adds to today's counters, a course sale or
 * its full refund to the day of the purchase. A failed write is
 * reported and never fails the member's change.
 */
export class MemberEvents implements UserChangeWatcher {
  constructor(
    private readonly days: FigureDaysRepository,
    /** Whether payments are taken in live mode now (a test key's payments are never revenue). */
    private readonly liveMode: () => Promise<boolean>,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async changed(before: UserDoc | null, after: UserDoc | null): Promise<void> {
    try {
      const touchesBilling = Boolean(
        before?.billing || after?.billing || before?.purchases?.length || after?.purchases?.length,
      );
      const live = touchesBilling ? await this.liveMode() : false;
      const additions = additionsOf(before, after, live, dayOf(this.now()));
      await Promise.all([...additions].map(([day, counts]) => this.days.add(day, counts)));
    } catch (error) {
      this.log.error({ err: error }, 'Could not count a member change in the figures');
    }
  }
}
