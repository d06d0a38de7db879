import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, limitOpenRange, parseRange } from './byte-ranges';

/** The type a file is sent as, by its extension: the media library's and the courses' pictures. */
export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  m4v: 'video/x-m4v',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
  aac: 'audio/aac',
  wma: 'audio/x-ms-wma',
};

/**
 * Uploaded files are not our code: opened directly they may show themselves, but never run
 * script, submit forms or reach the page's storage (an SVG's script cannot read the token).
 */
export const MEDIA_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Sends a file already checked to be servable (inside the library, or a lesson file its link
 * opens): byte ranges (video seeking), ETag / Last-Modified revalidation, HEAD. `notFound`
 * answers when it vanished or was swapped for a link.
 */
export async function sendMediaFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: {
    absolute: string;
    contentType: string;
    cacheControl: string;
    disposition?: string;
    /** At most this many bytes answer a range left open (`bytes=N-`); all of them by default. */
    openRangeLimit?: number;
  },
  notFound: () => FastifyReply,
): Promise<FastifyReply> {
  // O_NOFOLLOW: a file swapped for a link after the check is refused, not followed.
  const handle = await open(file.absolute, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return notFound();
  let streaming = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return notFound();
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const lastModified = info.mtime.toUTCString();
    reply
      .header('Content-Type', file.contentType)
      .header('Accept-Ranges', 'bytes')
      .header('ETag', etag)
      .header('Last-Modified', lastModified)
      .header('Cache-Control', file.cacheControl)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', MEDIA_CSP);
    if (file.disposition) reply.header('Content-Disposition', file.disposition);

    if (notModified(request, etag, info.mtime)) return reply.code(304).send();

    const ifRange = request.headers['if-range'];
    const rangeAllowed = !ifRange || ifRange === etag || ifRange === lastModified;
    const asked = rangeAllowed ? parseRange(request.headers.range, info.size) : null;
    if (asked === 'unsatisfiable') {
      return reply.code(416).header('Content-Range', `bytes */${info.size}`).send();
    }
    const limit = file.openRangeLimit;
    const range = asked && limit ? limitOpenRange(request.headers.range, asked, limit) : asked;
    const { start, end } = range ?? { start: 0, end: info.size - 1 };
    if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${info.size}`);
    reply.header('Content-Length', String(Math.max(0, end - start + 1)));
    if (request.method === 'HEAD' || info.size === 0) return reply.send();
    streaming = true;
    return reply.send(handle.createReadStream({ start, end }));
  } finally {
    if (!streaming) await handle.close();
  }
}

function notModified(request: FastifyRequest, etag: string, mtime: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) return etagMatches(ifNoneMatch, etag);
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}
