import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, csvRow } from './csv';

describe('csv', () => {
  it.each([
    ['+1', `"'+1"`],
    ['-2', `"'-2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tTab', `"'\tTab"`],
    ['line\nbreak', '"line\nbreak"'],
    ['plain', '"plain"'],
    // 16.16: a part after ; , or tab is a cell of its own in other spreadsheet settings.
    ['Trent;=1+1;x', `"Trent;'=1+1;x"`],
    ['Bob,=cmd|x', `"Bob,'=cmd|x"`],
    ['a\t@SUM(A1)', `"a\t'@SUM(A1)"`],
    ['Ann;-1', `"Ann;'-1"`],
    ['a=b, c+d', '"a=b, c+d"'],
  ])('writes the cell %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('quotes every cell of a row, doubles quotes and ends the row with CRLF', () => {
    expect(csvRow(['a "b"', '', '=1'])).toBe(`"a ""b""","","'=1"\r\n`);
  });

  it('starts the file with the byte-order mark', () => {
    expect(csvHeader(['Name', 'Email'])).toBe('\uFEFF"Name","Email"\r\n');
  });
});
