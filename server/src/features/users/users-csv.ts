import type { UserDoc } from './users.repository';

const HEADER = ['Name', 'Email', 'Role', 'Tier', 'Status', 'Created'];

/**
 * One CSV cell. A value that a spreadsheet would run as a formula (starting with = + - @,
 * or a tab or carriage return) gets a leading apostrophe; quotes, commas and line breaks are quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The users as CSV text, a batch of rows at a time, so that a large list never sits in memory or in one string. */
export async function* usersCsv(batches: AsyncIterable<UserDoc[]>): AsyncGenerator<string> {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (names with accents).
  yield `\uFEFF${csvRow(HEADER)}`;
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
