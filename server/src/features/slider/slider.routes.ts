import type { OutgoingHttpHeaders } from 'node:http';
import { sliderConfigBody } from '@common/schemas/slider';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { negotiateEncoding } from '../../http/compression';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import { PlaylistsRepository } from '../playlists/playlists.repository';
import { defaultBackgroundSvg, defaultBackgroundVersion } from './default-backgrounds';
import { saveSliderConfig } from './slider-config.service';
import { PublicSlides, type PublicSlidesResponse, type SlidesRepresentation } from './slider-public';

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
    return writeAnswer(reply, 304, variant.notModifiedHeaders, cachingHeadersOnly);
  writeAnswer(reply, 200, variant.headers, allHeaders, variant.body);
}

const allHeaders = () => true;
/**
 * A 304 carries what guides caches and nothing else (RFC 9110, 15.4.5): the browser keeps using
 * the headers of the 200 it stored, security headers included, and updates only these. CORS
 * headers stay: a cross-origin revalidation is checked on the 304 itself.
 */
const cachingHeadersOnly = (name: string) => name.startsWith('access-control-');

/**
 * Writes the answer straight to Node's response with its headers worked out in advance, instead
 * of Fastify's send (content-type parsing, onSend hooks, header merging). What the hooks set on
 * the reply on the way (the security headers, CORS) goes out with it when `keep` says so; the
 * answer's own headers win, and a Vary set by a hook is kept. Fastify still times the request,
 * runs the onResponse hooks and writes the request log.
 */
function writeAnswer(
  reply: FastifyReply,
  status: number,
  own: SlidesRepresentation['headers'],
  keep: (name: string) => boolean,
  body?: Buffer,
): void {
  reply.hijack();
  const fromHooks = reply.getHeaders(); // a copy
  const headers: OutgoingHttpHeaders = {};
  for (const name in fromHooks) if (keep(name)) headers[name] = fromHooks[name];
  for (const [name, value] of own) headers[name] = value;
  if (fromHooks.vary) headers.vary = `${fromHooks.vary}, Accept-Encoding`;
  reply.raw.writeHead(status, headers);
  reply.raw.end(body);
}

/** /api/slider: the public slides for every visitor, and the configuration for administrators. */
export function sliderRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const playlists = new PlaylistsRepository(ctx.store);
    const publicSlides = new PublicSlides(ctx.sliderConfig, playlists);

    // Compressed here rather than by the compression plugin: the answer is compressed once and kept.
    // Not async: the usual answer is already in memory, and this is the busiest route there is.
    app.get('/public', { compress: false }, (request, reply) => {
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
