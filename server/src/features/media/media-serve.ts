import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { MediaCategory } from '@common/media';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody } from '../../http/error-handler';
import { etagMatches, parseRange } from './http-range';
import { inspectMediaFile, parseMediaPath, resolveBasePath } from './media-library';

/**
 * Uploaded files are not our code: opened directly they may show themselves, but never run
 * script, submit forms or reach the page's storage (an SVG's script cannot read the token).
 */
export const MEDIA_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

const CONTENT_TYPES: Record<string, string> = {
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

function contentType(category: MediaCategory, name: string): string {
  const extension = path.extname(name).slice(1).toLowerCase();
  if (extension === 'ogg') return category === 'audio' ? 'audio/ogg' : 'video/ogg';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/**
 * Serves `/media/<category>/<file>` from the base path configured right now (it can change
 * while the server runs). Public, because the background slideshow plays for visitors too.
 * Supports byte ranges (video seeking), ETag / Last-Modified revalidation and HEAD; never lists
 * folders and never leaves the library.
 */
export function registerMediaServing(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'config' | 'slideshowSettings'>,
) {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    handler: (request, reply) => serve(request, reply, ctx),
  });
}

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Pick<AppContext, 'config' | 'slideshowSettings'>,
): Promise<FastifyReply> {
  const notFound = () => reply.code(404).send(errorBody('NOT_FOUND', 'No such media file'));
  const media = parseMediaPath(decodePath(request.url));
  if (!media) return notFound();
  const base = await resolveBasePath(
    (await ctx.slideshowSettings.get()).backgroundsBasePath,
    ctx.config.mediaRoots,
  ).catch(() => null);
  if (!base) return notFound();
  const check = await inspectMediaFile(base, media);
  if (!check.ok) return notFound();

  // O_NOFOLLOW: a file swapped for a link after the check is refused, not followed.
  const handle = await open(check.absolute, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return notFound();
  let streaming = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return notFound();
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const lastModified = info.mtime.toUTCString();
    const versioned = /[?&]v=/.test(request.url);
    reply
      .header('Content-Type', contentType(media.category, media.name))
      .header('Accept-Ranges', 'bytes')
      .header('ETag', etag)
      .header('Last-Modified', lastModified)
      // A `?v=<last scan>` URL changes whenever the library does, so it may be kept a day.
      .header('Cache-Control', versioned ? 'public, max-age=86400' : 'public, no-cache')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', MEDIA_CSP);

    if (notModified(request, etag, info.mtime)) return reply.code(304).send();

    const ifRange = request.headers['if-range'];
    const rangeAllowed = !ifRange || ifRange === etag || ifRange === lastModified;
    const range = rangeAllowed ? parseRange(request.headers.range, info.size) : null;
    if (range === 'unsatisfiable') {
      return reply.code(416).header('Content-Range', `bytes */${info.size}`).send();
    }
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

/** The path after /media/, each segment decoded once; '' when it cannot be decoded. */
function decodePath(url: string): string {
  const raw = (url.split('?')[0] ?? '').slice('/media/'.length);
  try {
    return raw
      .split('/')
      .map((segment) => decodeURIComponent(segment))
      .join('/');
  } catch {
    return '';
  }
}

function notModified(request: FastifyRequest, etag: string, mtime: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) return etagMatches(ifNoneMatch, etag);
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}
