import type { PaymentPlan } from '@common/payment-plans';
import type { FiguresQuery, MoneyAnswer, MoneyFigures } from '@common/schemas/figures';
import { counterName, counterText, type FigureDayDoc } from './figure-days.repository';
import { addDays, stepsOf } from './periods';

/** Months in each of a price's intervals: a yearly price counts a twelfth a month. */
const MONTHS_PER: Record<NonNullable<PaymentPlan['interval']>, number> = {
  day: 12 / 365,
  week: 12 / 52,
  month: 1,
  year: 12,
};

/** What one subscription at the plan brings a month, in the currency's minor units (not rounded). */
export function monthlyAmount(plan: PaymentPlan): number | null {
  if (plan.amount === null || !plan.interval || !plan.currency) return null;
  return plan.amount / (MONTHS_PER[plan.interval] * Math.max(1, plan.intervalCount));
}

type Counts = Record<string, number>;
/** The first letters of `paying:`, `gained:`, `lost:` and `sales:`. */
const [P, G, L, S] = ['p', 'g', 'l', 's'].map((letter) => letter.charCodeAt(0));

/** A money counter of a day: `key` is the price's counter name, or for sales the currency. */
interface MoneyEntry {
  kind: 'paying' | 'gained' | 'lost' | 'sales' | 'salesCount';
  key: string;
  /** For `lost`: the day the subscription started. */
  since: string;
  amount: number;
}
const MONEY_KINDS = new Set<string>(['paying', 'gained', 'lost', 'sales', 'salesCount']);
const entriesOf = new WeakMap<Counts, MoneyEntry[]>();

/**
 * A day's money counters, picked out once per roll-up read: the repository keeps settled days a
 * minute, so ten years (3,650 days of members' and sources' counters too) are not taken apart
 * again at every request, only their few money counters walked.
 */
function moneyEntries(counts: Counts): MoneyEntry[] {
  let entries = entriesOf.get(counts);
  if (entries) return entries;
  entries = [];
  for (const name in counts) {
    // Most counters are members' and sources': told apart by their first letter, never split.
    const first = name.charCodeAt(0);
    if (first !== P && first !== G && first !== L && first !== S) continue;
    const [kind = '', key = '', since = ''] = name.split(':');
    if (!MONEY_KINDS.has(kind)) continue;
    const sale = kind === 'sales' || kind === 'salesCount';
    entries.push({
      kind: kind as MoneyEntry['kind'],
      key: sale ? counterText(key) : key,
      since,
      amount: counts[name]!,
    });
  }
  entriesOf.set(counts, entries);
  return entries;
}

/**
 * Money over a period from the roll-ups (`days`: every day up to the period's end, from the
 * first) and the prices' amounts. Subscriptions at a price the settings no longer list have no
 * known amount and are left out.
 */
export function moneyFigures(
  query: FiguresQuery,
  days: FigureDayDoc[],
  plans: PaymentPlan[],
): Omit<MoneyAnswer, 'conversion' | 'available'> {
  const priced = new Map<string, { monthly: number; currency: string }>();
  for (const plan of plans) {
    const monthly = monthlyAmount(plan);
    if (monthly !== null && plan.currency)
      priced.set(counterName(plan.id), { monthly, currency: plan.currency });
  }
  const sales = salesIn(days, query.from, query.to);
  const currencies = [
    ...new Set([...[...priced.values()].map((price) => price.currency), ...sales.keys()]),
  ].sort();
  const paying = new Map<string, number>();
  const mrrOf = () =>
    currencies.map((currency) => {
      let sum = 0;
      for (const [price, count] of paying) {
        const known = priced.get(price);
        if (known?.currency === currency) sum += Math.max(0, count) * known.monthly;
      }
      return Math.round(sum);
    });
  const payersOf = () =>
    currencies.map((currency) => {
      let sum = 0;
      for (const [price, count] of paying)
        if (priced.get(price)?.currency === currency) sum += Math.max(0, count);
      return sum;
    });
  const totals = currencies.map(() => ({ gained: 0, lost: 0, lostOfStart: 0 }));
  const currencyIndex = (price: string) => currencies.indexOf(priced.get(price)?.currency ?? '');
  // Course sales of the step under way, per currency (shown step by step beside MRR).
  let stepSales = currencies.map(() => 0);
  const apply = (entries: MoneyEntry[], inPeriod: boolean) => {
    for (const { kind, key, since, amount } of entries) {
      if (kind === 'sales') {
        const at = inPeriod ? currencies.indexOf(key) : -1;
        if (at >= 0) stepSales[at]! += amount;
        continue;
      }
      if (kind === 'paying') paying.set(key, (paying.get(key) ?? 0) + amount);
      if (!inPeriod || (kind !== 'gained' && kind !== 'lost')) continue;
      const at = currencyIndex(key);
      if (at < 0) continue;
      if (kind === 'gained') totals[at]!.gained += amount;
      else {
        totals[at]!.lost += amount;
        if (since < query.from) totals[at]!.lostOfStart += amount;
      }
    }
  };
  const steps = stepsOf(query.from, query.to, query.step);
  const points: MoneyAnswer['points'] = [];
  const dayBefore = addDays(query.from, -1);
  // Paying at the period's start: read once the roll-ups before it are added up.
  const start: { payers: number[] | null } = { payers: null };
  let step = 0;
  // Roll-ups in order; a step's MRR is read once every roll-up up to its last day is added.
  const readStepsUpTo = (day: string | null) => {
    if (start.payers === null && (day === null || day > dayBefore)) start.payers = payersOf();
    while (step < steps.length && (day === null || steps[step]!.end < day)) {
      points.push({ start: steps[step]!.start, mrr: mrrOf(), courseSales: stepSales });
      stepSales = currencies.map(() => 0);
      step += 1;
    }
  };
  for (const doc of days) {
    if (doc._id > query.to) break;
    readStepsUpTo(doc._id);
    apply(moneyEntries(doc.counts), doc._id >= query.from);
  }
  readStepsUpTo(null);
  const atStart = start.payers ?? payersOf();
  const atEnd = payersOf();
  const mrr = mrrOf();
  return {
    currencies: currencies.map(
      (currency, at): MoneyFigures => ({
        currency,
        mrr: mrr[at]!,
        arpu: atEnd[at]! > 0 ? Math.round(mrr[at]! / atEnd[at]!) : 0,
        payingAtStart: atStart[at]!,
        payingAtEnd: atEnd[at]!,
        paidGained: totals[at]!.gained,
        paidLost: totals[at]!.lost,
        churn: atStart[at]! > 0 ? totals[at]!.lostOfStart / atStart[at]! : null,
        courseSales: sales.get(currency)?.amount ?? 0,
        coursesSold: sales.get(currency)?.count ?? 0,
      }),
    ),
    points,
  };
}

/** Course sales (one-time purchases, full refunds taken off) made from `from` to `to`, by currency. */
function salesIn(
  days: FigureDayDoc[],
  from: string,
  to: string,
): Map<string, { amount: number; count: number }> {
  const byCurrency = new Map<string, { amount: number; count: number }>();
  for (const doc of days) {
    if (doc._id < from || doc._id > to) continue;
    for (const { kind, key, amount } of moneyEntries(doc.counts)) {
      if (kind !== 'sales' && kind !== 'salesCount') continue;
      const sold = byCurrency.get(key) ?? { amount: 0, count: 0 };
      if (kind === 'sales') sold.amount += amount;
      else sold.count += amount;
      byCurrency.set(key, sold);
    }
  }
  return byCurrency;
}
