import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  type DefaultBackgroundResponse,
  type SlideshowConfigResponse,
  type SlideshowPublicResponse,
  type SlideshowSaveResponse,
  slideshowSettingsBody,
} from '@common/schemas/slideshow';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context';
import { negotiateEncoding } from '../../http/compression';
import type { CorsAnswer } from '../../http/cors';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import { defaultBackgroundSvg, defaultBackgroundVersion } from './default-backgrounds';
import type { PublicSlides, PublicSlidesResponse } from './public-slides';
import type { SlideshowSettingsService } from './slideshow-settings.service';

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

/**
 * Writes the answer straight to Node's response with its headers worked out once per change,
 * instead of Fastify's send (content-type parsing, onSend hooks, copying and merging headers).
 * The security headers and the cache policy are in the worked-out list already; what the CORS
 * rule adds for this request (Access-Control-Allow-Origin, Vary: Origin) is added, on a 304 too:
 * a cross-origin revalidation is checked on the 304 itself.
 */
function sendSlides(
  headers: IncomingHttpHeaders,
  response: ServerResponse,
  answer: PublicSlidesResponse,
  cors: CorsAnswer,
): void {
  const encoding = negotiateEncoding(headers['accept-encoding']);
  const variant = (encoding && answer.encoded(encoding)) || answer;
  const known = headers['if-none-match'];
  const notModified = known !== undefined && (known === variant.etag || sameContent(known, answer.etag));
  const worked = notModified ? variant.notModifiedHeaders : variant.headers;
  response.writeHead(
    notModified ? 304 : 200,
    (cors.allowOrigin || cors.varyOrigin ? withCors(worked, cors) : worked) as string[],
  );
  response.end(notModified ? undefined : variant.body);
}

function withCors(headers: readonly string[], cors: CorsAnswer): string[] {
  const all = [...headers];
  if (cors.allowOrigin) all.push('access-control-allow-origin', cors.allowOrigin);
  // Names sit at even places; 'vary' is always among them.
  if (cors.varyOrigin) all[all.indexOf('vary') + 1] = 'Origin, Accept-Encoding';
  return all;
}

/** What the CORS hook set on this reply, for an answer written past Fastify's send. */
function corsOf(reply: FastifyReply): CorsAnswer {
  const allowOrigin = reply.getHeader('access-control-allow-origin');
  return {
    allowOrigin: allowOrigin === undefined ? null : String(allowOrigin),
    varyOrigin: reply.getHeader('vary') !== undefined,
  };
}

/** /api/slider: the public slides for every visitor, and the configuration for administrators. */
export function slideshowRoutes(
  publicSlides: PublicSlides,
  settings: SlideshowSettingsService,
  ctx: Pick<AppContext, 'fastLane' | 'guards' | 'activity'>,
) {
  return async (app: FastifyInstance) => {
    // The busiest route there is: answered before Fastify whenever the answer is ready (see
    // http/fast-lane.ts), and by Fastify otherwise (the first request after a change, a query
    // string, the log at debug). Compressed here rather than by the compression hook: the answer
    // is compressed once per change and kept.
    ctx.fastLane.add('/api/slider/public', (request, response, cors) => {
      const ready = publicSlides.peek();
      if (ready) sendSlides(request.headers, response, ready, cors);
      return ready !== undefined;
    });
    app.get<{ Reply: SlideshowPublicResponse }>(
      '/public',
      { config: { compress: false } },
      async (request, reply) => {
        const answer = publicSlides.peek() ?? (await publicSlides.get());
        reply.hijack();
        sendSlides(request.headers, reply.raw, answer, corsOf(reply));
      },
    );

    app.get<{ Reply: DefaultBackgroundResponse }>('/defaults/:file', async (request, reply) => {
      const { file } = request.params as { file: string };
      const name = file.slice(0, -4);
      const svg = /^([a-z]+)\.svg$/.exec(file) && defaultBackgroundSvg(name);
      if (!svg) throw new AppError('NOT_FOUND', 'No such default background.');
      // The slides' URLs carry the drawing's version (?v=): such a URL never changes its answer.
      const versioned = (request.query as { v?: string }).v === defaultBackgroundVersion(name);
      const cache = versioned ? `public, max-age=${ONE_YEAR_S}, immutable` : `public, max-age=${ONE_DAY_S}`;
      return reply.type('image/svg+xml').header('Cache-Control', cache).send(svg);
    });

    app.get<{ Reply: SlideshowConfigResponse }>(
      '/config',
      { onRequest: ctx.guards.requireAdmin },
      async () => ({
        success: true,
        data: await settings.read(),
      }),
    );

    app.put<{ Reply: SlideshowSaveResponse }>(
      '/config',
      { onRequest: ctx.guards.requireAdmin },
      async (request) => {
        const input = parseInput(slideshowSettingsBody, request.body);
        const before = await settings.read();
        const data = await settings.save(input);
        await ctx.activity.record(request, {
          kind: 'slider.saved',
          summary: 'Saved the slideshow settings',
          before,
          after: data,
        });
        return { success: true, message: 'Configuration saved successfully!', data };
      },
    );
  };
}
