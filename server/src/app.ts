import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './app-context';
import type { Config } from './config';
import { createGuards } from './features/auth/auth.guard';
import { type AuthLimits, authRoutes } from './features/auth/auth.routes';
import { createAuthService } from './features/auth/auth.service';
import { loadTokenKey, TokenService } from './features/auth/token-service';
import { healthRoutes } from './features/health/health.routes';
import { mediaRoutes } from './features/media/media.routes';
import { registerMediaServing } from './features/media/media-serve';
import { playlistRoutes } from './features/playlists/playlists.routes';
import { sliderRoutes } from './features/slider/slider.routes';
import { SliderConfigRepository } from './features/slider/slider-config.repository';
import { ensureAdmin } from './features/users/ensure-admin';
import { UsersRepository } from './features/users/users.repository';
import { adminUsersRoutes } from './features/users/users.routes';
import { UsersService } from './features/users/users.service';
import { registerCompression } from './http/compression';
import { refuseUnknownPaths, registerErrorHandler } from './http/error-handler';
import { RequestLogController, sharedRequestLogger } from './http/request-log';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSpa } from './http/spa';
import { createMailer, type Mailer } from './mail/mailer';
import type { Store } from './store/store';

/** JSON bodies larger than this are refused from their Content-Length, before any parsing. */
const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  logger?: FastifyServerOptions['logger'];
  mailer?: Mailer;
  authLimits?: AuthLimits;
  /** Ends this process so that its supervisor starts a fresh one (the console's restart). */
  requestRestart?: () => void;
}

/** Builds the whole application around a store. The one place where the parts are wired. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // One line per request at most, and only when worth reading: see http/request-log.ts.
    logController: new RequestLogController(),
    childLoggerFactory: sharedRequestLogger,
    bodyLimit: JSON_BODY_LIMIT,
    // nginx on this machine may proxy to us; trust only its loopback hop for the client address.
    trustProxy: ['127.0.0.1', '::1'],
  });

  const users = new UsersRepository(store);
  await users.init();
  const sliderConfig = new SliderConfigRepository(store, config.dataDir);
  await sliderConfig.init();
  const tokens = new TokenService(await loadTokenKey(config.dataDir, config.jwtSecret));
  const mailer =
    deps.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const ctx: AppContext = {
    config,
    store,
    users,
    sliderConfig,
    tokens,
    mailer,
    guards: createGuards(tokens, users),
    log: app.log,
    requestRestart:
      deps.requestRestart ?? (() => app.log.warn('Restart requested, but no supervisor is attached')),
  };
  await ensureAdmin(users, config.admin, app.log);

  registerErrorHandler(app);
  await registerSecurityHeaders(app);
  await registerCompression(app);

  await app.register(healthRoutes(ctx), { prefix: '/api' });
  await app.register(
    authRoutes(
      createAuthService({ users, tokens, mailer, publicUrl: config.publicUrl, log: app.log }),
      ctx.guards,
      deps.authLimits,
    ),
    { prefix: '/api/auth' },
  );
  await app.register(sliderRoutes(ctx), { prefix: '/api/slider' });
  await app.register(playlistRoutes(ctx), { prefix: '/api/playlists' });
  // Everything under /api/admin is checked by this one hook, before the body is even read.
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', ctx.guards.requireAdmin);
      await admin.register(adminUsersRoutes(new UsersService(users)));
      refuseUnknownPaths(admin);
    },
    { prefix: '/api/admin' },
  );

  await app.register(mediaRoutes(ctx), { prefix: '/api/media' });
  registerMediaServing(app, ctx);

  await registerSpa(app, config.clientDistDir);
  return app;
}
