import { describe, expect, it } from 'vitest';
import { describePlan, type PaymentPlan } from './payment-plans';

const plan = (fields: Partial<PaymentPlan>): PaymentPlan => ({
  id: 'price_1',
  name: null,
  amount: 1200,
  currency: 'gbp',
  interval: 'month',
  intervalCount: 1,
  ...fields,
});

describe('describePlan', () => {
  it('reads a price as the member sees it', () => {
    expect(describePlan(plan({}), 'en-GB')).toBe('£12.00 a month');
    expect(describePlan(plan({ amount: 12000, interval: 'year' }), 'en-GB')).toBe('£120.00 a year');
    expect(describePlan(plan({ currency: 'eur', intervalCount: 3 }), 'en-GB')).toBe('€12.00 every 3 months');
    expect(describePlan(plan({ interval: null }), 'en-GB')).toBe('£12.00');
  });

  it('falls back to the price’s name when Stripe gave no amount', () => {
    expect(describePlan(plan({ amount: null, name: 'Founders' }))).toBe('Founders');
    expect(describePlan(plan({ amount: null }))).toBe('Paid membership');
  });
});
