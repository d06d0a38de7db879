import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** API answers smaller than this are sent as they are: compressing them saves too little. */
export const COMPRESS_THRESHOLD = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** Brotli at quality 4 compresses about as well as gzip -9 at a fraction of the cost of 11. */
const BROTLI_ON_THE_FLY = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Compression on the fly, for the API only: brotli where the client accepts it, else gzip.
 * The built client's files are compressed once at build time (`.br`/`.gz` beside them, served
 * as they are by http/spa.ts), and /media holds images and video, which are compressed
 * already and answered in byte ranges, so every route outside /api is left alone.
 * Must be registered before the routes it should cover.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.compress === undefined && !route.url.startsWith('/api/')) route.compress = false;
  });
  await app.register(compress, {
    // Request bodies are never compressed by our clients; checking each request for it is waste.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    brotliOptions: BROTLI_ON_THE_FLY,
  });
}

/** The same encoding a body compressed by @fastify/compress would get. */
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
