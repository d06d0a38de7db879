import type { PublicUser } from '@common/schemas/user';
import { describe, expect, it } from 'vitest';
import { isManagedByStripe, stripeTierWarning } from './billing-note';

const member = (fields: Partial<PublicUser>): PublicUser => ({
  _id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'user',
  membershipTier: 'paid',
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const billing = (status: NonNullable<PublicUser['billing']>['status']) => ({
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status,
  priceId: 'price_1',
  currentPeriodEnd: '2026-03-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  cancelAt: null,
  endedAt: null,
  paymentFailedAt: null,
});

describe('the warning before an administrator changes a tier Stripe manages', () => {
  it('warns when a member with a live subscription is made free: Stripe goes on charging', () => {
    const payer = member({ billing: billing('active'), tierSource: 'stripe' });
    expect(isManagedByStripe(payer)).toBe(true);
    expect(stripeTierWarning(payer, 'free')).toMatch(/does not cancel their subscription/);
    expect(stripeTierWarning(member({ billing: billing('past_due') }), 'free')).toMatch(/payment failed/);
  });

  it('says nothing when the tier stays, or Stripe no longer bills them', () => {
    expect(stripeTierWarning(member({ billing: billing('active') }), 'paid')).toBeNull();
    expect(stripeTierWarning(member({ billing: billing('active') }), undefined)).toBeNull();
    expect(
      stripeTierWarning(member({ billing: billing('canceled'), membershipTier: 'free' }), 'paid'),
    ).toBeNull();
    expect(stripeTierWarning(member({ membershipTier: 'free' }), 'paid')).toBeNull();
  });
});
