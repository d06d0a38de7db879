import type { PaymentPlan } from '@common/payment-plans';
import { figuresQuery } from '@common/schemas/figures';
import { describe, expect, it } from 'vitest';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { FigureDayDoc, FigureDaysRepository } from './figure-days.repository';
import { FiguresService } from './figures.service';
import { additionsOf } from './member-events';

/*
 * A month worked out by hand (March 2026; prices: 12.00 USD a month, 120.00 USD a year).
 * Before March: A pays monthly (since Feb 10), B yearly (Feb 15), C is complimentary (Feb 20),
 * D is on a monthly trial (Feb 25), E pays monthly with a test key (Feb 1).
 * In March: A cancels at the period's end on the 5th (still paying) and its period ends on the
 * 10th; D's trial turns active on the 3rd; F signs up on the 4th and upgrades on the 6th; G signs
 * up on the 7th and stays free; H signs up on the 8th, pays monthly at once, is refunded and
 * cancelled on the 12th.
 * By hand: paying at the start A, B = 2 (MRR 1200 + 12000/12 = 2200); at the end B, D, F = 3
 * (MRR 1000 + 1200 + 1200 = 3400, ARPU 3400 / 3 = 1133); gained D, F, H = 3; lost A, H = 2; churn
 * counts A alone (H was not paying at the start): 1 / 2. Members at the end 8, paid B C D E F = 5;
 * sign-ups F G H = 3; upgrades F H = 2 (D was paid already); cancellations A H = 2; conversion
 * 2 / (0 free at the start + 3 sign-ups).
 * Course sales (one-time, USD): B bought a course for 25.00 on Feb 20 (before March); G buys one
 * for 49.00 on the 7th; F buys one for 30.00 on the 6th, fully refunded on the 20th; E buys one
 * for 99.00 on the 9th with the test key; C's 15.00 of Feb 27 is refunded on March 2 (taken off
 * February). By hand: March's course sales are G's 49.00 alone, 1 course; MRR is unchanged.
 */
const PLANS: PaymentPlan[] = [
  { id: 'price_month', name: null, amount: 1200, currency: 'usd', interval: 'month', intervalCount: 1 },
  { id: 'price_year', name: null, amount: 12000, currency: 'usd', interval: 'year', intervalCount: 1 },
];

const byDay = new Map<string, Record<string, number>>();
const people = new Map<string, UserDoc>();
const at = (day: string) => new Date(`${day}T12:00:00Z`);

function change(name: string, day: string, next: Partial<UserDoc> | null, live = true) {
  const before = people.get(name) ?? null;
  const after = next === null ? null : ({ ...(before ?? base(name, day)), ...next } as UserDoc);
  for (const [when, added] of additionsOf(before, after, live, day)) {
    const counts = byDay.get(when) ?? {};
    for (const [counter, amount] of Object.entries(added)) counts[counter] = (counts[counter] ?? 0) + amount;
    byDay.set(when, counts);
  }
  if (after) people.set(name, after);
  else people.delete(name);
}
function base(name: string, day: string): UserDoc {
  return {
    _id: name,
    name,
    email: `${name}@example.com`,
    password: 'x',
    role: 'user',
    membershipTier: 'free',
    status: 'active',
    createdAt: at(day),
    updatedAt: at(day),
  };
}
const stripe = (priceId: string, status: 'active' | 'trialing' | 'canceled', day: string, extra = {}) => ({
  membershipTier: status === 'canceled' ? ('free' as const) : ('paid' as const),
  tierSource: 'stripe' as const,
  paidSince: status === 'canceled' ? undefined : at(day),
  billing: { priceId, status, ...extra },
});
const signUpPaid = (name: string, day: string, fields: Partial<UserDoc>, live = true) => {
  change(name, day, {});
  change(name, day, fields, live);
};

signUpPaid('A', '2026-02-10', stripe('price_month', 'active', '2026-02-10'));
signUpPaid('B', '2026-02-15', stripe('price_year', 'active', '2026-02-15'));
signUpPaid('C', '2026-02-20', {
  membershipTier: 'paid',
  tierSource: 'complimentary',
  paidSince: at('2026-02-20'),
});
signUpPaid('D', '2026-02-25', stripe('price_month', 'trialing', '2026-02-25'));
signUpPaid('E', '2026-02-01', stripe('price_month', 'active', '2026-02-01'), false);
change('A', '2026-03-05', { billing: { priceId: 'price_month', status: 'active', cancelAtPeriodEnd: true } });
change('A', '2026-03-10', stripe('price_month', 'canceled', '2026-03-10'));
change('D', '2026-03-03', { billing: { priceId: 'price_month', status: 'active' } });
change('F', '2026-03-04', {});
change('F', '2026-03-06', stripe('price_month', 'active', '2026-03-06'));
change('G', '2026-03-07', {});
change('H', '2026-03-08', {});
change('H', '2026-03-08', stripe('price_month', 'active', '2026-03-08'));
change('H', '2026-03-12', stripe('price_month', 'canceled', '2026-03-12'));

const purchase = (paymentId: string, amount: number, day: string, refundedOn: string | null = null) => ({
  courseId: 'c'.repeat(24),
  courseTitle: 'Calm mornings',
  priceId: null,
  checkoutSessionId: `cs_${paymentId}`,
  paymentId,
  amount,
  currency: 'usd',
  boughtAt: at(day),
  refundedAt: refundedOn ? at(refundedOn) : null,
});
const buys = (name: string, day: string, bought: ReturnType<typeof purchase>, live = true) =>
  change(name, day, { purchases: [...(people.get(name)?.purchases ?? []), bought] }, live);
const refund = (name: string, day: string, paymentId: string) =>
  change(name, day, {
    purchases: (people.get(name)?.purchases ?? []).map((one) =>
      one.paymentId === paymentId ? { ...one, refundedAt: at(day) } : one,
    ),
  });
buys('B', '2026-02-20', purchase('pi_b', 2500, '2026-02-20'));
buys('C', '2026-02-27', purchase('pi_c', 1500, '2026-02-27'));
refund('C', '2026-03-02', 'pi_c');
buys('F', '2026-03-06', purchase('pi_f', 3000, '2026-03-06'));
buys('G', '2026-03-07', purchase('pi_g', 4900, '2026-03-07'));
buys('E', '2026-03-09', purchase('pi_e', 9900, '2026-03-09'), false);
refund('F', '2026-03-20', 'pi_f');

const members = [...people.values()];
const days = {
  between: async (from: string, to: string): Promise<FigureDayDoc[]> =>
    [...byDay.entries()]
      .filter(([day]) => day >= from && day <= to)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, counts]) => ({ _id: day, counts, rev: 1, createdAt: at(day), updatedAt: at(day) })),
} as unknown as FigureDaysRepository;
const users = {
  count: async (filter: Record<string, unknown> = {}) =>
    members.filter((user) => !filter.membershipTier || user.membershipTier === filter.membershipTier).length,
  find: async () => [],
} as unknown as UsersRepository;
const figures = new FiguresService(
  { members: days, visits: days },
  users,
  { plans: async () => ({ available: true, plans: PLANS }) },
  () => at('2026-03-31'),
);
const march = (step = 'day') => figuresQuery.parse({ from: '2026-03-01', to: '2026-03-31', step });

describe('the money figures of the hand-worked month', () => {
  it('counts MRR, ARPU, gained, lost, churn and conversion as worked out by hand', async () => {
    const money = await figures.money(march());
    expect(money.available).toBe(true);
    expect(money.currencies).toEqual([
      {
        currency: 'usd',
        mrr: 3400,
        arpu: 1133,
        payingAtStart: 2,
        payingAtEnd: 3,
        paidGained: 3,
        paidLost: 2,
        churn: 0.5,
        courseSales: 4900,
        coursesSold: 1,
      },
    ]);
    expect(money.conversion).toBeCloseTo(2 / 3);
  });

  it('counts February’s course sales with its refund taken off, and none before any sale', async () => {
    const february = figuresQuery.parse({ from: '2026-02-01', to: '2026-02-28' });
    expect((await figures.money(february)).currencies[0]).toMatchObject({
      courseSales: 2500,
      coursesSold: 1,
    });
    const january = figuresQuery.parse({ from: '2026-01-01', to: '2026-01-31' });
    expect((await figures.money(january)).currencies[0]).toMatchObject({ courseSales: 0, coursesSold: 0 });
  });

  it('reads MRR at the end of each step: 2200 before the trial ended, 3400 at the end', async () => {
    const { points } = await figures.money(march());
    expect(points).toHaveLength(31);
    expect(points[0]).toEqual({ start: '2026-03-01', mrr: [2200], courseSales: [0] });
    expect(points[2]).toEqual({ start: '2026-03-03', mrr: [3400], courseSales: [0] });
    // F's sale of the 6th was refunded in full: taken off the 6th; G's of the 7th stays.
    expect(points[5]).toEqual({ start: '2026-03-06', mrr: [4600], courseSales: [0] });
    expect(points[6]).toEqual({ start: '2026-03-07', mrr: [4600], courseSales: [4900] });
    // On the 10th A stopped while H paid (B, D, F, H); on the 12th H stopped.
    expect(points[9]).toEqual({ start: '2026-03-10', mrr: [4600], courseSales: [0] });
    expect(points[11]).toEqual({ start: '2026-03-12', mrr: [3400], courseSales: [0] });
    expect(points[30]).toEqual({ start: '2026-03-31', mrr: [3400], courseSales: [0] });
  });

  it('answers no money while Stripe is not connected', async () => {
    const unpaid = new FiguresService({ members: days, visits: days }, users, {
      plans: async () => ({ available: false, plans: [] }),
    });
    expect(await unpaid.money(march())).toMatchObject({ available: false, currencies: [], points: [] });
  });
});

describe('the members of the hand-worked month', () => {
  it('counts members at the end, sign-ups, upgrades and cancellations, and the month before', async () => {
    const result = await figures.members(march('week'));
    expect(result.period).toEqual({ total: 8, paid: 5, free: 3, signups: 3, upgrades: 2, cancellations: 2 });
    expect(result.previous).toEqual({
      total: 5,
      paid: 5,
      free: 0,
      signups: 5,
      upgrades: 5,
      cancellations: 0,
    });
    expect(result.points.map((point) => point.start)).toEqual([
      '2026-03-01',
      '2026-03-08',
      '2026-03-15',
      '2026-03-22',
      '2026-03-29',
    ]);
    // Week one: F signed up and upgraded, G signed up, A stopped on the 10th (week two).
    expect(result.points[0]).toMatchObject({ total: 7, paid: 6, signups: 2, upgrades: 1, cancellations: 0 });
    expect(result.points[1]).toMatchObject({ total: 8, paid: 5, signups: 1, upgrades: 1, cancellations: 2 });
  });
});

describe('the period asked for', () => {
  it('is refused when it ends before it starts or spans more than ten years', () => {
    const refusal = (query: object) => figuresQuery.safeParse(query).error?.issues[0]?.message;
    expect(refusal({ from: '2026-03-02', to: '2026-03-01' })).toBe('The period ends before it starts.');
    expect(refusal({ from: '2010-01-01', to: '2026-03-01' })).toBe('A period spans at most ten years.');
    expect(refusal({ from: '2026-02-30', to: '2026-03-01' })).toBe('That date does not exist');
    expect(figuresQuery.safeParse({ from: '2016-03-01', to: '2026-03-01' }).success).toBe(true);
  });
});
