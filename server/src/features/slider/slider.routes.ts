import { sliderConfigBody } from '@common/schemas/slider';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { negotiateEncoding } from '../../http/compression';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import { PlaylistsRepository } from '../playlists/playlists.repository';
import { defaultBackgroundSvg, defaultBackgroundVersion } from './default-backgrounds';
import { saveSliderConfig } from './slider-config.service';
import { PublicSlides, type PublicSlidesResponse } from './slider-public';

const ONE_DAY_S = 86_400;
const ONE_YEAR_S = 31_536_000;

/** True when If-None-Match names this answer in any encoding (`"hash"`, `"hash-br"`, `"hash-gzip"`). */
function sameContent(ifNoneMatch: string, etag: string): boolean {
  const hash = etag.slice(0, -1);
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === etag || (t.startsWith(hash) && /^-(br|gzip)"$/.test(t.slice(hash.length)));
  });
}

function sendSlides(request: FastifyRequest, reply: FastifyReply, answer: PublicSlidesResponse): void {
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const variant = (encoding && answer.encoded(encoding)) || answer;
  const known = request.headers['if-none-match'];
  if (known && (known === variant.etag || sameContent(known, answer.etag)))
    writeAnswer(reply, 304, variant.notModifiedHeaders);
  else writeAnswer(reply, 200, variant.headers, variant.body);
}

/**
 * Writes the answer straight to Node's response with its headers worked out once per change,
 * instead of Fastify's send (content-type parsing, onSend hooks, copying and merging headers).
 * The security headers are in the worked-out list already; what the CORS hook set for this
 * request (Access-Control-Allow-Origin, Vary: Origin) is added, on a 304 too: a cross-origin
 * revalidation is checked on the 304 itself. Fastify still times the request, runs the
 * onResponse hooks and writes the request log.
 */
function writeAnswer(reply: FastifyReply, status: number, headers: readonly string[], body?: Buffer): void {
  reply.hijack();
  const allowOrigin = reply.getHeader('access-control-allow-origin');
  const vary = reply.getHeader('vary');
  const all =
    allowOrigin === undefined && vary === undefined ? headers : withCors(headers, allowOrigin, vary);
  reply.raw.writeHead(status, all as string[]);
  reply.raw.end(body);
}

function withCors(headers: readonly string[], allowOrigin: unknown, vary: unknown): string[] {
  const all = [...headers];
  if (allowOrigin !== undefined) all.push('access-control-allow-origin', String(allowOrigin));
  // Names sit at even places; 'vary' is always among them.
  if (vary !== undefined) all[all.indexOf('vary') + 1] = `${vary}, Accept-Encoding`;
  return all;
}

/** /api/slider: the public slides for every visitor, and the configuration for administrators. */
export function sliderRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const playlists = new PlaylistsRepository(ctx.store);
    const publicSlides = new PublicSlides(ctx.sliderConfig, playlists);

    // Compressed here rather than by the compression plugin: the answer is compressed once and kept.
    // Not async: the usual answer is already in memory, and this is the busiest route there is.
    app.get('/public', { config: { compress: false } }, (request, reply) => {
      const ready = publicSlides.peek();
      if (ready) return sendSlides(request, reply, ready);
      return publicSlides.get().then((answer) => sendSlides(request, reply, answer));
    });

    app.get('/defaults/:file', async (request, reply) => {
      const { file } = request.params as { file: string };
      const name = file.slice(0, -4);
      const svg = /^([a-z]+)\.svg$/.exec(file) && defaultBackgroundSvg(name);
      if (!svg) throw new AppError('NOT_FOUND', 'No such default background.');
      // The slides' URLs carry the drawing's version (?v=): such a URL never changes its answer.
      const versioned = (request.query as { v?: string }).v === defaultBackgroundVersion(name);
      const cache = versioned ? `public, max-age=${ONE_YEAR_S}, immutable` : `public, max-age=${ONE_DAY_S}`;
      return reply.type('image/svg+xml').header('Cache-Control', cache).send(svg);
    });

    app.get('/config', { onRequest: ctx.guards.requireAdmin }, async () => ({
      success: true,
      data: await ctx.sliderConfig.get(),
    }));

    app.put('/config', { onRequest: ctx.guards.requireAdmin }, async (request) => {
      const input = parseInput(sliderConfigBody, request.body);
      const before = await ctx.sliderConfig.get();
      const data = await saveSliderConfig(
        { sliderConfig: ctx.sliderConfig, playlists, mediaRoots: ctx.config.mediaRoots },
        input,
      );
      await ctx.activity.record(request, {
        kind: 'slider.saved',
        summary: 'Saved the slideshow settings',
        before,
        after: data,
      });
      return { success: true, message: 'Configuration saved successfully!', data };
    });
  };
}
