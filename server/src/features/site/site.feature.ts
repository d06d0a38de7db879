import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { siteAdminRoutes, siteRoutes } from './site.routes';
import { SiteService } from './site.service';
import { SiteHtml } from './site-html';
import { SiteIcons } from './site-icons';

/** What the site feature hands the features built after it: the course pages fill their HTML from `html`. */
export interface SiteFeature extends Feature {
  html: SiteHtml;
}

/**
 * The owner's site: its identity (name, tagline, accent colour, contact, social links, logo,
 * icon) and the pages the owner writes. `/api/site` for every visitor, `/api/admin/site` for the
 * console's Site section, the web manifest and icons, and every page of the web client filled
 * with the site's words. The settings' repository is the context's (`ctx.site`): the mails read
 * the site's name there.
 */
export async function createSiteFeature(ctx: AppContext): Promise<SiteFeature> {
  const site = new SiteService(ctx.site, ctx.mediaFolder);
  const html = new SiteHtml(site, ctx.config.publicUrl);
  const icons = new SiteIcons(site);
  return {
    name: 'site',
    routes: [{ plugin: siteRoutes(site, icons, ctx) }],
    adminRoutes: [{ prefix: '/site', plugin: siteAdminRoutes(site, ctx) }],
    fillPage: (request, reply, builtFile) => html.fill(request, reply, builtFile),
    html,
  };
}
