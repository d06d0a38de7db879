/** A byte range of a file, both ends included (as in `Content-Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * One range of a `Range` header, and the ranges after it (`bytes=0-0,1-1`): only the first is
 * read. Players never ask for several; answering the whole file instead (which RFC 9110 allows)
 * would let `bytes=0-0,1-1` skip the step an open range is answered in (limitOpenRange).
 */
const FIRST_RANGE = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*(?:,[\s\d,-]*)?$/i;

/**
 * Reads a `Range` header for a file of `size` bytes (RFC 9110, section 14). Answers the range
 * asked for (the first one, when several are: see FIRST_RANGE), 'unsatisfiable' when it lies
 * past the end, or null when the header should be ignored and the whole file sent: absent or
 * malformed.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = FIRST_RANGE.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (size === 0) return 'unsatisfiable';
  if (first === '') {
    // "-500": the last 500 bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/**
 * `range`, no longer than `limit` bytes when its header left the end open (`bytes=N-`, also as
 * the first of several): the
 * answer then says where it stops (`Content-Range`), and the player asks on from there.
 */
export function limitOpenRange(header: string | undefined, range: ByteRange, limit: number): ByteRange {
  if (!/^bytes=\s*\d+\s*-\s*(?:,|$)/i.test(header ?? '')) return range;
  return { start: range.start, end: Math.min(range.end, range.start + limit - 1) };
}

/** Whether an `If-None-Match` list names `etag` (weak comparison, as the header asks). */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
