import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { type AppContext, type ContextDeps, createAppContext } from './app-context';
import type { Feature } from './feature';
import { createAccountFeature } from './features/account/account.feature';
import { createActivityFeature } from './features/activity/activity.feature';
import { createAdminUsersFeature } from './features/admin-users/admin-users.feature';
import { createAppServerFeature } from './features/app-server/app-server.feature';
import { type AuthLimits, createAuthFeature } from './features/auth/auth.feature';
import { createCoursesFeature } from './features/courses/courses.feature';
import { createDatabaseFeature, type TargetConnector } from './features/database/database.feature';
import { createFiguresFeature } from './features/figures/figures.feature';
import { createHealthFeature } from './features/health/health.feature';
import { createMailFeature } from './features/mail/mail.feature';
import { createMediaFeature } from './features/media/media.feature';
import { createNginxFeature } from './features/nginx/nginx.feature';
import { createPaymentsFeature } from './features/payments/payments.feature';
import { createPlaylistsFeature } from './features/playlists/playlists.feature';
import { createSessionsFeature } from './features/sessions/sessions.feature';
import { createSiteFeature } from './features/site/site.feature';
import { createSitemapFeature } from './features/sitemap/sitemap.feature';
import { createSlideshowFeature } from './features/slideshow/slideshow.feature';
import { registerApiRateLimit } from './http/api-rate-limit';
import { FASTIFY_BODY_LIMIT, registerBodyLimit } from './http/body-limit';
import { registerCompression } from './http/compression';
import { registerCors } from './http/cors';
import { refuseUnknownPaths, registerErrorHandler } from './http/error-handler';
import { FastLane } from './http/fast-lane';
import { LiveSettings } from './http/live-settings';
import { RequestLogController, sharedRequestLogger } from './http/request-log';
import {
  DEFAULT_REQUEST_TIMEOUTS,
  type RequestTimeouts,
  registerRequestTimeouts,
} from './http/request-timeouts';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSpa, type SpaOptions } from './http/spa';
import type { SiteProcesses } from './process/protocol';

export interface AppDeps extends ContextDeps {
  logger?: FastifyServerOptions['logger'];
  authLimits?: AuthLimits;
  /** Every worker's figures, from `npm start`'s supervisor (main.ts provides it under the supervisor). */
  siteProcesses?: () => Promise<SiteProcesses | null>;
  /** How long slow clients may take; tests give shorter ones. */
  requestTimeouts?: RequestTimeouts;
  /** Where the database panel connects to other MongoDB servers; tests give a stand-in. */
  databaseTargets?: TargetConnector;
}

/**
 * Builds the whole application around a store: the context every feature is built from
 * (app-context.ts), the features in the order their routes are registered (feature.ts), and the
 * hooks every request passes. Adding a feature is one line of the list.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  // The Node.js panel's settings that apply at once, read by the hooks on every request.
  const live = new LiveSettings(config.appServer);
  const fastLane = new FastLane(live);
  const app = Fastify({
    serverFactory: fastLane.serverFactory,
    logger: deps.logger ?? false,
    // One line per request at most, and only when worth reading: see http/request-log.ts.
    logController: new RequestLogController(),
    childLoggerFactory: sharedRequestLogger,
    // The console's Max Request Size is enforced live by registerBodyLimit; this is the ceiling.
    bodyLimit: FASTIFY_BODY_LIMIT,
    // A restart or shutdown lets running and kept-alive requests finish instead of failing them.
    return503OnClosing: false,
    // nginx may proxy to us: only its hop (loopback, unless TRUSTED_PROXIES names the nginx
    // machine) may tell the visitor's address.
    trustProxy: config.trustedProxies,
  });
  fastLane.attachLogger(app.log);
  const ctx = await createAppContext(app, deps, fastLane);

  // Features that others build on come first; each hands on what the later ones take.
  const auth = await createAuthFeature(ctx, { limits: deps.authLimits });
  const payments = await createPaymentsFeature(ctx);
  const site = await createSiteFeature(ctx);
  // The course pages are drawn in the site's frame: its name, its data, its icons. The slideshow
  // never plays a course's pictures, and deleting one from the library asks first.
  const courses = await createCoursesFeature(ctx, { frame: site.html, coursePrice: payments.coursePrice });
  // A deleted account's progress goes through the courses' own repository, which the figures watch.
  const account = await createAccountFeature(ctx, {
    limiter: auth.limiter,
    billing: payments.service,
    progress: courses.progress,
  });
  const features: Feature[] = [
    await createHealthFeature(ctx),
    auth,
    account,
    payments,
    courses,
    // After courses: the course pages fill themselves; the site fills every other page.
    site,
    await createSlideshowFeature(ctx, { coursePictures: courses.pictureUses }),
    await createPlaylistsFeature(ctx),
    await createMediaFeature(ctx, { coursePictures: courses.pictureUses }),
    await createAdminUsersFeature(ctx, { removal: account.removal, tiers: payments.tiers }),
    await createSessionsFeature(ctx),
    await createActivityFeature(ctx),
    await createDatabaseFeature(ctx, { targets: deps.databaseTargets }),
    await createAppServerFeature(ctx, { live, siteProcesses: deps.siteProcesses }),
    await createMailFeature(ctx, { tiers: payments.tiers }),
    await createNginxFeature(ctx),
    await createFiguresFeature(ctx, { payments: payments.service, courses: courses.figuresSource }),
    await createSitemapFeature(ctx, { coursePages: courses.visitorPages }),
  ];
  for (const { close } of features) if (close) app.addHook('onClose', async () => close());

  registerErrorHandler(app);
  await registerSecurityHeaders(app);
  registerCors(app, live);
  registerBodyLimit(app, live);
  registerRequestTimeouts(app, deps.requestTimeouts ?? DEFAULT_REQUEST_TIMEOUTS);
  registerApiRateLimit(app, { live, identify: auth.identify, counters: ctx.store.counters });
  registerCompression(app);

  await registerRoutes(app, features, ctx.guards.requireAdmin);
  await registerSpa(app, config.clientDistDir, { fill: fillPage(features) });
  return app;
}

/**
 * Every feature's routes, in the list's order: the public ones, then the administrators' scope
 * and the web-server panel's, each checked by one hook before the body is even read (unknown
 * paths included, so strangers learn nothing of which exist), then what is served outside /api.
 */
async function registerRoutes(
  app: FastifyInstance,
  features: Feature[],
  requireAdmin: AppContext['guards']['requireAdmin'],
): Promise<void> {
  for (const { prefix, plugin } of features.flatMap((feature) => feature.routes ?? []))
    await app.register(plugin, { prefix });
  const scopes = { '/api/admin': 'adminRoutes', '/api/system': 'systemRoutes' } as const;
  for (const [prefix, routes] of Object.entries(scopes)) {
    await app.register(
      async (scope) => {
        scope.addHook('onRequest', requireAdmin);
        for (const mount of features.flatMap((feature) => feature[routes] ?? []))
          await scope.register(mount.plugin, { prefix: mount.prefix });
        refuseUnknownPaths(scope);
      },
      { prefix },
    );
  }
  for (const feature of features) feature.serve?.(app);
}

/** The web client's pages that a feature fills (the course pages), the first that sends it. */
function fillPage(features: Feature[]): NonNullable<SpaOptions['fill']> {
  const fillers = features.flatMap((feature) => (feature.fillPage ? [feature.fillPage] : []));
  return async (...args) => {
    for (const fill of fillers) if (await fill(...args)) return true;
    return false;
  };
}
