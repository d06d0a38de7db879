import { csvHeader, csvRow } from '../../lib/csv';
import type { UserDoc } from './users.repository';

const HEADER = ['Name', 'Email', 'Role', 'Tier', 'Status', 'Created'];

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
      ]);
    }
    yield chunk;
  }
}
