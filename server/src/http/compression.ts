import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this API route compresses its own answers (or must not be compressed). */
    compress?: boolean;
  }
}

/** API answers smaller than this are sent as they are: compressing them saves too little. */
export const COMPRESS_THRESHOLD = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** Brotli at quality 4 compresses about as well as gzip -9 at a fraction of the cost of 11. */
const BROTLI_ON_THE_FLY = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
/** Text of any kind: JSON, CSV, SVG and other XML. */
const COMPRESSIBLE = /^text\/|[+/](?:json|xml)(?:;|$)/;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compression on the fly, for the API only: brotli where the client accepts it, else gzip, on
 * the thread pool (and as a stream for streamed answers such as the CSV exports). The built
 * client's files are compressed once at build time (`.br`/`.gz` beside them, served as they are
 * by http/spa.ts), and /media holds images and video, which are compressed already and answered
 * in byte ranges, so every route outside /api is left alone, and so is an API route whose config
 * says `compress: false` (the public slides compress each answer once and keep it).
 * Ours rather than @fastify/compress: that plugin's check for a fetch Response made the first API
 * answer load Node's whole fetch implementation (9 MB of memory in every server process).
 * Must be registered before the routes it should cover.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.config?.compress === false) return;
    const own = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [...own, compressAnswer];
  });
}

async function compressAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (payload === null || payload === undefined || request.method === 'HEAD') return payload;
  if (reply.getHeader('content-encoding') !== undefined) return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return payload;
  const stream = isStream(payload);
  if (!stream && !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
  if (!stream && Buffer.byteLength(payload as string | Buffer) < COMPRESS_THRESHOLD) return payload;
  // From here on the answer depends on Accept-Encoding, compressed or not.
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return payload;
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  if (stream) {
    const compressor = encoding === 'br' ? createBrotliCompress(BROTLI_ON_THE_FLY) : createGzip();
    // An error on either side ends both; Fastify sees the compressed stream fail.
    return pipeline(payload as Readable, compressor, () => undefined);
  }
  return encoding === 'br'
    ? brotliAsync(payload as string | Buffer, BROTLI_ON_THE_FLY)
    : gzipAsync(payload as string | Buffer);
}

function isStream(payload: unknown): payload is Readable {
  return typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';
}

/** The same encoding a body compressed on the fly gets. */
export function compressBody(body: string | Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI_ON_THE_FLY) : gzipSync(body);
}

const negotiated = new Map<string, ContentEncoding | null>();

/**
 * The encoding to answer an Accept-Encoding header with: br, else gzip, else none, honouring
 * q-values (`br;q=0` refuses brotli) and `*`. Every browser sends one of a handful of headers,
 * so answers are remembered per header and the hot path costs a map lookup.
 */
export function negotiateEncoding(header: string | undefined): ContentEncoding | null {
  if (!header) return null;
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const quality = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    quality.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const q = (name: string) => quality.get(name) ?? quality.get('*') ?? 0;
  const answer = q('br') > 0 && q('br') >= q('gzip') ? 'br' : q('gzip') > 0 ? 'gzip' : null;
  // Bounded: a client making up a new header on every request cannot grow it without end.
  if (negotiated.size >= 256) negotiated.clear();
  negotiated.set(header, answer);
  return answer;
}
