import { csvHeader, csvRow } from '../../lib/csv';
import type { UserDoc } from '../users/users.repository';

/**
 * The billing columns come last, so a sheet made from the older export keeps its columns: why the
 * tier is what it is, the subscription's status at Stripe, the end of the period paid for (the
 * next payment, or the end of access once cancelled), the Stripe customer, and the courses bought
 * on their own (a refunded one marked so).
 */
const HEADER = [
  'Name',
  'Email',
  'Role',
  'Tier',
  'Status',
  'Created',
  'Tier source',
  'Subscription status',
  'Period end',
  'Stripe customer',
  'Courses bought',
];

/** The users as CSV text, a batch of rows at a time, so that a large list never sits in memory or in one string. */
export async function* usersCsv(batches: AsyncIterable<UserDoc[]>): AsyncGenerator<string> {
  yield csvHeader(HEADER);
  for await (const users of batches) {
    let chunk = '';
    for (const user of users) {
      chunk += csvRow([
        user.name,
        user.email,
        user.role,
        user.membershipTier,
        user.status,
        user.createdAt.toISOString(),
        user.tierSource ?? '',
        user.billing?.status ?? '',
        user.billing?.currentPeriodEnd?.toISOString() ?? '',
        user.billing?.customerId ?? '',
        (user.purchases ?? [])
          .map((purchase) => `${purchase.courseTitle}${purchase.refundedAt ? ' (refunded)' : ''}`)
          .join('; '),
      ]);
    }
    yield chunk;
  }
}
