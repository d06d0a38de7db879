/** A byte range of a file, both ends included (as in `Content-Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header for a file of `size` bytes (RFC 9110, section 14). Answers the one
 * range asked for, 'unsatisfiable' when it lies past the end, or null when the header should be
 * ignored and the whole file sent: absent, malformed, or several ranges (which players never
 * need; sending the whole file instead is allowed).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
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

/** How much of a video or a sound its player's first request gets: see {@link playerRange}. */
export const FIRST_ANSWER_BYTES = 512 * 1024;

/**
 * A player's first request for a video or a sound is an open range from its start (`bytes=0-`),
 * sent to read its header and first frame: for the next slide while the one before still shows,
 * or for a page that may never play it. Answered whole, a fast link pushes megabytes into the
 * socket before the browser stops reading (Chromium kept 1 MB of a 2 MB clip it wanted the first
 * frame of). Answered with its first 512 KB, the browser asks for the rest (`bytes=524288-`) once
 * it plays: a client reads `Content-Range` to see whether more requests are needed (RFC 9110,
 * 15.3.7). Every other range is answered as asked.
 */
export function playerRange(header: string | undefined, range: ByteRange): ByteRange {
  if (range.start !== 0 || !/^bytes=\s*0\s*-\s*$/i.test(header ?? '')) return range;
  return { start: 0, end: Math.min(range.end, FIRST_ANSWER_BYTES - 1) };
}

/** Whether an `If-None-Match` list names `etag` (weak comparison, as the header asks). */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
