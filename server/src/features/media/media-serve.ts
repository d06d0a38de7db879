import path from 'node:path';
import type { MediaCategory } from '@common/media';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody } from '../../http/error-handler';
import { CONTENT_TYPES, sendMediaFile } from '../../http/send-file';
import { COPIES_FOLDER, COPY_FILE, copiesFolderOf } from './copies/layout';
import { inspectLibraryFile, inspectMediaFile, parseMediaPath, resolveBasePath } from './media-library';

export { MEDIA_CSP } from '../../http/send-file';

/** A copy's name carries its original's cache key: the same URL never answers differently. */
const COPY_CACHE = 'public, max-age=31536000, immutable';
const COPIES_PREFIX = `/media/${COPIES_FOLDER}/`;

function contentType(category: MediaCategory, name: string): string {
  const extension = path.extname(name).slice(1).toLowerCase();
  if (extension === 'ogg') return category === 'audio' ? 'audio/ogg' : 'video/ogg';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

type ServingContext = Pick<AppContext, 'config' | 'mediaFolder'>;

/**
 * Serves `/media/<category>/<file>` from the base path configured right now (it can change
 * while the server runs), and the resized copies of its pictures (and videos) under `/media/.copies/`.
 * Public, because the background slideshow plays for visitors too. Never lists folders and
 * never leaves the library.
 */
export function registerMediaServing(app: FastifyInstance, ctx: ServingContext) {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    handler: (request, reply) => serveOriginal(request, reply, ctx),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: `${COPIES_PREFIX}*`,
    handler: (request, reply) => serveCopy(request, reply, ctx),
  });
}

/**
 * How much of a slideshow video one request gets. The slideshow loads a video while the slide
 * before still shows, and a visitor may leave before its turn: Chromium asks for open ranges
 * (`bytes=0-`) only to read the header and first frame, and on a fast link the server had pushed
 * a megabyte into the socket before the browser stopped reading (1 MB of a 2 MB clip). Answered
 * 512 KB at a time, the player asks on as it plays (a client reads `Content-Range` to see
 * whether more requests are needed, RFC 9110 15.3.7): a few requests for a background clip.
 * Lesson files are served whole: a member who opened the lesson is there to watch it.
 */
export const SLIDESHOW_RANGE_BYTES = 512 * 1024;

/** The most one answer of a library file carries: a video or a sound in steps, a picture whole. */
const openRangeLimit = (type: string) => (/^(video|audio)\//.test(type) ? SLIDESHOW_RANGE_BYTES : undefined);

const notFoundOf = (reply: FastifyReply) => () =>
  reply.code(404).send(errorBody('NOT_FOUND', 'No such media file'));

async function currentBase(ctx: ServingContext): Promise<string | null> {
  const configured = await ctx.mediaFolder.get();
  return resolveBasePath(configured, ctx.config.mediaRoots).catch(() => null);
}

async function serveOriginal(request: FastifyRequest, reply: FastifyReply, ctx: ServingContext) {
  const notFound = notFoundOf(reply);
  const media = parseMediaPath(decodePath(request.url, '/media/'));
  if (!media) return notFound();
  const base = await currentBase(ctx);
  if (!base) return notFound();
  const check = await inspectMediaFile(base, media);
  if (!check.ok) return notFound();
  // A `?v=<last scan>` URL changes whenever the library does, so it may be kept a day.
  const versioned = /[?&]v=/.test(request.url);
  const type = contentType(media.category, media.name);
  return sendMediaFile(
    request,
    reply,
    {
      absolute: check.absolute,
      contentType: type,
      cacheControl: versioned ? 'public, max-age=86400' : 'public, no-cache',
      openRangeLimit: openRangeLimit(type),
    },
    notFound,
  );
}

/**
 * `/media/.copies/<category>/<original's name>/<key>-<width>.webp` (or a video's `.mp4` copy, in
 * byte ranges like any video): nothing else is served there.
 */
async function serveCopy(request: FastifyRequest, reply: FastifyReply, ctx: ServingContext) {
  const notFound = notFoundOf(reply);
  const segments = decodePath(request.url, COPIES_PREFIX).split('/');
  const [category, name, file] = segments;
  const media = segments.length === 3 ? parseMediaPath(`${category}/${name}`) : null;
  if (!media || !file || !COPY_FILE.test(file)) return notFound();
  const base = await currentBase(ctx);
  if (!base) return notFound();
  const check = await inspectLibraryFile(base, path.join(copiesFolderOf(base, media), file));
  if (!check.ok) return notFound();
  const type = file.endsWith('.mp4') ? 'video/mp4' : 'image/webp';
  return sendMediaFile(
    request,
    reply,
    {
      absolute: check.absolute,
      contentType: type,
      cacheControl: COPY_CACHE,
      openRangeLimit: openRangeLimit(type),
    },
    notFound,
  );
}

/** The path after `prefix`, each segment decoded once; '' when it cannot be decoded. */
function decodePath(url: string, prefix: string): string {
  const raw = (url.split('?')[0] ?? '').slice(prefix.length);
  try {
    return raw
      .split('/')
      .map((segment) => decodeURIComponent(segment))
      .join('/');
  } catch {
    return '';
  }
}
