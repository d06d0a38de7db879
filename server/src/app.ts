import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './app-context';
import { accountRoutes } from './features/account/account.routes';
import { AccountService } from './features/account/account.service';
import { AccountRemoval } from './features/account/account-removal';
import { CourseRecords } from './features/account/course-records';
import { ActivityRepository } from './features/activity/activity.repository';
import { activityRoutes } from './features/activity/activity.routes';
import { ActivityLog } from './features/activity/activity.service';
import { appServerRoutes } from './features/app-server/app-server.routes';
import { AppServerService } from './features/app-server/app-server.service';
import { createGuards } from './features/auth/auth.guard';
import { authRoutes } from './features/auth/auth.routes';
import { AuthService } from './features/auth/auth.service';
import { identifyCaller } from './features/auth/identify-caller';
import { ReauthProofs } from './features/auth/reauth';
import { type AuthLimits, SignInLimiter } from './features/auth/sign-in-limiter';
import { loadTokenKey, TokenService } from './features/auth/token-service';
import { createCoursesFeature } from './features/courses/courses.feature';
import { databaseRoutes } from './features/database/database.routes';
import { DatabaseService } from './features/database/database.service';
import { mongoTargets, type TargetConnector } from './features/database/mongo-target';
import { healthRoutes } from './features/health/health.routes';
import { mailRoutes } from './features/mail/mail.routes';
import { mediaRoutes } from './features/media/media.routes';
import { MediaFolderRepository } from './features/media/media-folder.repository';
import { registerMediaServing } from './features/media/media-serve';
import { nginxRoutes } from './features/nginx/nginx.routes';
import { createPayments } from './features/payments/payments.module';
import { playlistRoutes } from './features/playlists/playlists.routes';
import { SessionsRepository } from './features/sessions/sessions.repository';
import { adminSessionsRoutes } from './features/sessions/sessions.routes';
import { SessionsService } from './features/sessions/sessions.service';
import { SharedChanges } from './features/shared-state/shared-changes';
import { StoreLeases } from './features/shared-state/store-lease';
import { slideshowRoutes } from './features/slideshow/slideshow.routes';
import { SlideshowSettingsRepository } from './features/slideshow/slideshow-settings.repository';
import { ensureAdmin } from './features/users/ensure-admin';
import { UsersRepository } from './features/users/users.repository';
import { adminUsersRoutes } from './features/users/users.routes';
import { UsersService } from './features/users/users.service';
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
import { registerSpa } from './http/spa';
import { SharedRateCounters } from './lib/rate-limiter';
import { createMailer } from './mail/mailer';
import type { RestartOutcome, SiteProcesses } from './process/protocol';
import type { Config } from './settings/config';
import type { Store } from './store/store';

export interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  logger?: FastifyServerOptions['logger'];
  /** Tests shorten the mail queue's retry schedule (mail/mail-queue.ts has the product's). */
  mailRetryDelaysMs?: readonly number[];
  authLimits?: AuthLimits;
  /** Restarts the server (the console's restart); main.ts provides it. */
  requestRestart?: () => Promise<RestartOutcome> | undefined;
  /** Every worker's figures, from `npm start`'s supervisor (main.ts provides it under the supervisor). */
  siteProcesses?: () => Promise<SiteProcesses | null>;
  /** How long slow clients may take; tests give shorter ones. */
  requestTimeouts?: RequestTimeouts;
  /** Where the database panel connects to other MongoDB servers; tests give a stand-in. */
  databaseTargets?: TargetConnector;
}

/** Builds the whole application around a store. The one place where the parts are wired. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
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

  const users = new UsersRepository(store);
  await users.init();
  // What other server processes change and this one caches, seen within a second (polled).
  const changes = new SharedChanges(store, app.log);
  await changes.init();
  changes.start();
  app.addHook('onClose', () => changes.stop());
  const leases = new StoreLeases(store);
  const slideshowSettings = new SlideshowSettingsRepository(store, changes);
  await slideshowSettings.init();
  const mediaFolder = new MediaFolderRepository(store, config.mediaDir);
  await mediaFolder.init();
  const tokenKey = await loadTokenKey(config.dataDir, config.jwtSecret);
  const tokens = new TokenService(tokenKey);
  const activityEntries = new ActivityRepository(store);
  await activityEntries.init();
  const activity = new ActivityLog(activityEntries, app.log, config.activityRetentionDays);
  const sessionsRepository = new SessionsRepository(store);
  await sessionsRepository.init();
  const sessions = new SessionsService(sessionsRepository, tokens, app.log);
  await sessions.sweepExpired();
  // Sign-in and every check of a signed-in member's password share one set of budgets.
  const signInLimiter = new SignInLimiter(
    new SharedRateCounters(store.counters, 'sign-in:'),
    deps.authLimits,
  );
  const mailer = await createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log: app.log,
    retryDelaysMs: deps.mailRetryDelaysMs,
  });
  // A send in progress may finish; a claim left behind goes back to the queue for the next process.
  app.addHook('onClose', () => mailer.close());
  const ctx: AppContext = {
    config,
    store,
    users,
    slideshowSettings,
    mediaFolder,
    tokens,
    sessions,
    mailer,
    changes,
    leases,
    guards: createGuards(sessions, users),
    reauth: new ReauthProofs(tokenKey),
    activity,
    log: app.log,
    fastLane,
    async requestRestart() {
      if (!deps.requestRestart)
        return { started: false, message: 'This server was started without a way to restart itself.' };
      try {
        return (await deps.requestRestart()) ?? { started: true, port: config.port };
      } catch (error) {
        app.log.error({ err: error }, 'Restart failed');
        return { started: false, message: (error as Error).message };
      }
    },
  };
  const payments = await createPayments({ config, store, users, activity, mailer, leases, log: app.log });
  app.addHook('onClose', async () => payments.close());
  await ensureAdmin(users, config.admin, app.log);
  await pruneActivityDaily(app, activity);

  registerErrorHandler(app);
  await registerSecurityHeaders(app);
  registerCors(app, live);
  registerBodyLimit(app, live);
  registerRequestTimeouts(app, deps.requestTimeouts ?? DEFAULT_REQUEST_TIMEOUTS);
  registerApiRateLimit(app, {
    live,
    identify: identifyCaller({ tokens, users, sessions }),
    counters: store.counters,
  });
  registerCompression(app);

  await app.register(healthRoutes(ctx), { prefix: '/api' });
  await app.register(
    authRoutes(
      new AuthService({ users, sessions, mailer, publicUrl: config.publicUrl, log: app.log }),
      ctx.guards,
      { activity, reauth: ctx.reauth, users },
      signInLimiter,
    ),
    { prefix: '/api/auth' },
  );
  // Deleting an account cancels its paid subscription first, and takes its course progress with it.
  const courseRecords = new CourseRecords(store);
  const removal = new AccountRemoval(users, sessions, {
    endBilling: (user, by) => payments.service.cancelForDeletion(user, by),
    forget: (user) => courseRecords.forget(user),
  });
  await app.register(
    accountRoutes(
      new AccountService({
        users,
        sessions,
        mailer,
        publicUrl: config.publicUrl,
        log: app.log,
        activity,
        removal,
        courseProgress: (userId) => courseRecords.exportOf(userId),
      }),
      ctx.guards,
      signInLimiter,
      activity,
    ),
    { prefix: '/api/account' },
  );
  await app.register(payments.routes(ctx.guards), { prefix: '/api/payments' });
  const courses = await createCoursesFeature(ctx, tokenKey);
  await app.register(courses.routes, { prefix: '/api/courses' });
  await app.register(slideshowRoutes(ctx), { prefix: '/api/slider' });
  await app.register(playlistRoutes(ctx), { prefix: '/api/playlists' });
  // Everything under /api/admin is checked by this one hook, before the body is even read.
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', ctx.guards.requireAdmin);
      await admin.register(
        adminUsersRoutes(new UsersService(users, sessions, leases, removal), ctx, payments.tiers),
      );
      await admin.register(adminSessionsRoutes(sessions, users, activity));
      await admin.register(activityRoutes(activity));
      await admin.register(
        databaseRoutes(
          new DatabaseService({
            store,
            dataDir: config.dataDir,
            environmentUri: config.mongodbUri,
            targets: deps.databaseTargets ?? mongoTargets,
            requestRestart: () => ctx.requestRestart(),
            log: app.log,
          }),
          ctx,
        ),
        { prefix: '/mongodb' },
      );
      await admin.register(appServerRoutes(new AppServerService(ctx, live, deps.siteProcesses), ctx), {
        prefix: '/nodejs',
      });
      await admin.register(mailRoutes(mailer), { prefix: '/mail' });
      await admin.register(payments.adminRoutes(ctx), { prefix: '/payments' });
      await admin.register(courses.adminRoutes, { prefix: '/courses' });
      refuseUnknownPaths(admin);
    },
    { prefix: '/api/admin' },
  );
  // The web-server panel: admin-only the same way, unknown paths included.
  await app.register(
    async (system) => {
      system.addHook('onRequest', ctx.guards.requireAdmin);
      await system.register(nginxRoutes(ctx));
      refuseUnknownPaths(system);
    },
    { prefix: '/api/system' },
  );

  await app.register(mediaRoutes(ctx), { prefix: '/api/media' });
  registerMediaServing(app, ctx);
  courses.registerFileServing(app);

  await registerSpa(app, config.clientDistDir, { fill: (...args) => courses.pages.fill(...args) });
  return app;
}

/** Entries past the retention period go at start and then once a day. */
async function pruneActivityDaily(app: FastifyInstance, activity: ActivityLog): Promise<void> {
  const prune = () =>
    activity.prune().catch((error: unknown) => app.log.error({ err: error }, 'Activity log pruning failed'));
  await prune();
  const timer = setInterval(prune, 24 * 60 * 60 * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
