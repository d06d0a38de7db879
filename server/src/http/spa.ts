import { existsSync } from 'node:fs';
import path from 'node:path';
import { isAppPath } from '@common/app-paths';
import { PUBLIC_PAGES, type PublicPageName, publicPageAt } from '@common/public-pages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, noRouteError } from './error-handler';

export interface SpaOptions {
  /**
   * Pages whose HTML is worked out per request from their built file (every page gets the site's
   * name and data; the course pages each course's title and link-preview tags too); answers
   * whether it sent the page.
   */
  fill?: (request: FastifyRequest, reply: FastifyReply, builtFile: string) => Promise<boolean>;
}

/**
 * Serves the built React app, compressed at build time. Hashed files under /assets are cached
 * for a year; the HTML is revalidated every time so that a new build is picked up at once. A
 * public page's path answers that page's HTML (its title, description and preloaded code; see
 * scripts/vite-page-html.ts); any other page of the client (common/app-paths.ts) answers
 * index.html and the client router takes over. Any other address answers index.html with status
 * 404: the client shows its not-found page, and search engines and scanners see a real 404.
 * Source maps stay on the server's disk (they describe the code to anyone who asks).
 */
export async function registerSpa(
  app: FastifyInstance,
  distDir: string,
  options: SpaOptions = {},
): Promise<void> {
  const hasBuild = existsSync(path.join(distDir, 'index.html'));
  const pageFiles = new Map<PublicPageName, string>();
  for (const name of Object.keys(PUBLIC_PAGES) as PublicPageName[]) {
    if (existsSync(path.join(distDir, 'pages', `${name}.html`))) pageFiles.set(name, `pages/${name}.html`);
  }
  const htmlFor = (pathname: string) => {
    const page = publicPageAt(pathname);
    return (page && pageFiles.get(page)) ?? 'index.html';
  };
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: false,
      // The pages' HTML only through sendPage: the site's words are filled in there.
      allowedPath: (pathname) => !pathname.endsWith('.map') && !pathname.endsWith('.html'),
      // The build writes .br and .gz beside each text file (scripts/vite-precompress.ts): they are
      // sent as they are, by the client's Accept-Encoding, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    if (await options.fill?.(request, reply, path.join(distDir, htmlFor(pathname)))) return reply;
    return reply
      .code(isAppPath(pathname) ? 200 : 404)
      .header('Cache-Control', 'no-cache')
      .sendFile(htmlFor(pathname));
  };
  if (hasBuild) app.get('/', (request, reply) => sendPage(request, reply, '/'));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing file (a stale chunk, say) is a 404, not the page: HTML where a script belongs breaks loudly.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/(api|media|assets)\//.test(pathname) &&
      !/\.[a-z0-9]+$/i.test(pathname);
    if (isPage && hasBuild) return sendPage(request, reply, pathname);
    if (isPage) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web client is not built yet. Run `npm run build` (npm start does this for you).');
    }
    const error = noRouteError(request.method, pathname);
    return reply.code(error.status).send(errorBody(error.code, error.message));
  });
}
