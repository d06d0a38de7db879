import type { DataAnswer, ImageFile, TextFile } from '@common/schemas/envelopes';
import {
  ownerPageBody,
  ownerPageNameSchema,
  type SiteAdminView,
  sitePreviewBody,
  siteSettingsBody,
} from '@common/schemas/site';
import { type OwnerPageView, ownerPageWords, SITE_ICON_SIZES, type SitePublic } from '@common/site';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import type { SiteService } from './site.service';
import type { SiteIcons } from './site-icons';

const ok = <T>(data: T) => ({ success: true, data }) as DataAnswer<T>;

/**
 * What every visitor reads of the site, public: `/api/site` (also inlined in each page), the
 * owner's pages, and outside /api the web manifest and the icons made from the owner's (browsers
 * ask for them by these names).
 */
export function siteRoutes(site: SiteService, icons: SiteIcons, ctx: Pick<AppContext, 'log'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: DataAnswer<SitePublic> }>('/api/site', async () => ok(await site.publicSite()));
    app.get<{ Params: { name: string }; Reply: DataAnswer<OwnerPageView> }>(
      '/api/site/pages/:name',
      async (request) => ok(await site.page(parseInput(ownerPageNameSchema, request.params.name))),
    );
    app.get<{ Reply: TextFile }>('/manifest.webmanifest', async (_request, reply) =>
      reply
        .type('application/manifest+json')
        .header('Cache-Control', 'no-cache')
        .send(await icons.manifest()),
    );
    app.get<{ Params: { file: string }; Reply: ImageFile }>('/site-icon/:file', async (request, reply) => {
      const size = Number(/^(\d+)\.png$/.exec(request.params.file)?.[1]);
      const known = SITE_ICON_SIZES.find((s) => s === size);
      const png = known
        ? await icons.png(known).catch((error: unknown) => {
            // A picture sharp cannot read after all (changed on disk since it was chosen): the page keeps working.
            ctx.log.warn({ err: error }, 'The site icon could not be made from the chosen picture');
            return null;
          })
        : null;
      if (!png)
        throw new AppError(
          'NOT_FOUND',
          'No icon of that size: choose an icon in the console’s Site section.',
        );
      return reply.type('image/png').header('Cache-Control', 'no-cache').send(png);
    });
  };
}

/** /api/admin/site: the console's Site section; the admin scope's hook has already checked the caller. */
export function siteAdminRoutes(site: SiteService, ctx: Pick<AppContext, 'activity'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: DataAnswer<SiteAdminView> }>('/', async () => ok(await site.adminView()));

    app.put<{ Reply: DataAnswer<SiteAdminView> }>('/', async (request) => {
      const { before, after } = await site.saveSettings(parseInput(siteSettingsBody, request.body));
      const changed = Object.keys(after).filter(
        (key) =>
          JSON.stringify(before[key as keyof typeof before]) !==
          JSON.stringify(after[key as keyof typeof after]),
      );
      await ctx.activity.record(request, {
        kind: 'site.saved',
        summary: changed.length
          ? `Saved the site’s ${changed.join(', ')}`
          : 'Saved the site settings (no change)',
        before,
        after,
      });
      return ok(await site.adminView());
    });

    app.put<{ Params: { name: string }; Reply: DataAnswer<SiteAdminView> }>(
      '/pages/:name',
      async (request) => {
        const name = parseInput(ownerPageNameSchema, request.params.name);
        const { before, after } = await site.savePage(name, parseInput(ownerPageBody, request.body));
        await ctx.activity.record(request, {
          kind: 'site.page',
          summary: `Edited ${ownerPageWords(name)}`,
          before,
          after,
        });
        return ok(await site.adminView());
      },
    );

    app.post<{ Reply: DataAnswer<{ html: string }> }>('/preview', async (request) =>
      ok({ html: await site.preview(parseInput(sitePreviewBody, request.body).markdown) }),
    );
  };
}
