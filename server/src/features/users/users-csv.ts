import type { UserDoc } from './users.repository';

const HEADER = ['Name', 'Email', 'Role', 'Tier', 'Status', 'Created'];
/** Rows per chunk written to the response: big enough to be quick, small enough to stay lean. */
const ROWS_PER_CHUNK = 1000;

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

/** The users as CSV text, produced a chunk at a time so that a large list never sits in one string. */
export function* usersCsv(users: UserDoc[]): Generator<string> {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (names with accents).
  yield `\uFEFF${csvRow(HEADER)}`;
  for (let start = 0; start < users.length; start += ROWS_PER_CHUNK) {
    let chunk = '';
    for (const user of users.slice(start, start + ROWS_PER_CHUNK)) {
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
