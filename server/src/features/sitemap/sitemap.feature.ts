import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { sitemapRoutes } from './sitemap.routes';
import { type CoursePagesSource, SitemapService } from './sitemap.service';

/**
 * What search engines read: `/robots.txt` and `/sitemap.xml` (split above 50,000 addresses),
 * with absolute addresses from the site's public address (PUBLIC_URL).
 */
export async function createSitemapFeature(
  ctx: AppContext,
  parts: { coursePages: CoursePagesSource },
): Promise<Feature> {
  const sitemap = new SitemapService({
    publicUrl: ctx.config.publicUrl,
    coursePages: parts.coursePages,
    changes: ctx.changes,
  });
  return { name: 'sitemap', serve: sitemapRoutes(sitemap, ctx) };
}
