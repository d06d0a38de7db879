import { Readable } from 'node:stream';
import type { ErrorBody } from '@common/errors';
import type { TextFile } from '@common/schemas/envelopes';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody } from '../../http/error-handler';
import { robotsTxt } from './robots';
import { SITEMAP_FILES, type SitemapService } from './sitemap.service';

const XML = 'application/xml; charset=utf-8';
/** Search engines read these now and then; an hour's copy is fresh enough. */
const CACHE = 'public, max-age=3600';

/** `/robots.txt`, `/sitemap.xml` and the files of a split sitemap, outside /api. */
export function sitemapRoutes(sitemap: SitemapService, ctx: Pick<AppContext, 'config'>) {
  return (app: FastifyInstance) => {
    const robots = robotsTxt(ctx.config.publicUrl);
    app.get<{ Reply: TextFile }>('/robots.txt', async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('Cache-Control', CACHE).send(robots),
    );
    app.get<{ Reply: TextFile }>('/sitemap.xml', async (_request, reply) =>
      reply.type(XML).header('Cache-Control', CACHE).send(Readable.from(sitemap.main())),
    );
    app.get<{ Params: { file: string }; Reply: TextFile | ErrorBody }>(
      `${SITEMAP_FILES}/:file`,
      async (request, reply) => {
        const n = /^([1-9]\d{0,5})\.xml$/.exec(request.params.file)?.[1];
        if (!n || Number(n) > (await sitemap.files())) {
          return reply.code(404).send(errorBody('NOT_FOUND', 'There is no such sitemap file.'));
        }
        return reply
          .type(XML)
          .header('Cache-Control', CACHE)
          .send(Readable.from(sitemap.file(Number(n))));
      },
    );
  };
}
