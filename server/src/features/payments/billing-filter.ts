import { PAYING_STATUSES } from '@common/schemas/billing';
import type { BillingFilter } from '@common/schemas/payments';
import type { Filter } from '../../store/store';
import { BILLING_FIELDS } from '../users/billing-record';

const CONDITIONS: Record<BillingFilter, Filter> = {
  paying: { [BILLING_FIELDS.status]: { $in: [...PAYING_STATUSES] } },
  past_due: { [BILLING_FIELDS.status]: 'past_due' },
  complimentary: { tierSource: 'complimentary', membershipTier: 'paid' },
};

/** The console's user list narrowed to paying members, failing payments, or paid tiers given by hand. */
export function billingFilter(filter: Filter, billing: BillingFilter | undefined): Filter {
  if (!billing) return filter;
  const condition = CONDITIONS[billing];
  return Object.keys(filter).length > 0 ? { $and: [filter, condition] } : condition;
}
