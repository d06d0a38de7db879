import type { UserDoc } from './users.repository';

const HEADER = ['Name', 'Email', 'Role', 'Tier', 'Status', 'Created'];

/**
 * One CSV cell, always quoted. Any part of the value that a spreadsheet could read as a cell of
 * its own and run as a formula gets a leading apostrophe: the start of the value, and anything
 * after a `,`, `;` or tab (a spreadsheet set to another separator splits there, quotes or not),
 * when it starts with = + - @, a tab or a carriage return.
 */
export function csvCell(value: string): string {
  const safe = value.replace(/(^|[,;\t])([=+\-@\t\r])/g, "$1'$2");
  return `"${safe.replaceAll('"', '""')}"`;
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
