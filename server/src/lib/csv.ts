/**
 * CSV as the console's exports write it (users, activity): every cell quoted, rows ended by CRLF,
 * and the file started by a byte-order mark so that spreadsheet programs read it as UTF-8 (names
 * with accents).
 */

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

/** One row: its cells, quoted, and the line end. */
export function csvRow(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The file's first row, the column names, after the byte-order mark. */
export function csvHeader(cells: string[]): string {
  return `\uFEFF${csvRow(cells)}`;
}
