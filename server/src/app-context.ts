import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ActivityRepository } from './features/activity/activity.repository';
import { ActivityLog } from './features/activity/activity.service';
import { createGuards, type Guards } from './features/auth/auth.guard';
import { ReauthProofs } from './features/auth/reauth';
import { MediaFolderRepository } from './features/media/media-folder.repository';
import { SessionsRepository } from './features/sessions/sessions.repository';
import { SessionsService } from './features/sessions/sessions.service';
import { loadTokenKey, TokenService } from './features/sessions/token-service';
import { SharedChanges } from './features/shared-state/shared-changes';
import { StoreLeases } from './features/shared-state/store-lease';
import { SiteSettingsRepository } from './features/site/site-settings.repository';
import { SlideshowSettingsRepository } from './features/slideshow/slideshow-settings.repository';
import { ensureAdmin } from './features/users/ensure-admin';
import { UsersRepository } from './features/users/users.repository';
import type { FastLane } from './http/fast-lane';
import { createMailer, type Mailer } from './mail/mailer';
import type { RestartOutcome } from './process/protocol';
import type { Config } from './settings/config';
import type { Store } from './store/store';

/**
 * What every feature is built from (see feature.ts): the parts several features share. Made
 * once, by createAppContext in buildApp; a feature's routes are handed the slice they read.
 */
export interface AppContext {
  config: Readonly<Config>;
  store: Store;
  users: UsersRepository;
  /** The slideshow's settings, and the revision that cached public slides follow. */
  slideshowSettings: SlideshowSettingsRepository;
  /** The media library's folder (the spec's `backgroundsBasePath`). */
  mediaFolder: MediaFolderRepository;
  /** The site's identity and the owner's pages: every page, mail and link preview reads the site's name here. */
  site: SiteSettingsRepository;
  /** The site's secret (JWT_SECRET, else generated once): signs sign-in tokens, password confirmations and lesson-file links. */
  tokenKey: Uint8Array;
  tokens: TokenService;
  /** Server-side sessions: start, check, end (see features/sessions). */
  sessions: SessionsService;
  guards: Guards;
  /** The password-confirmation proof that changes able to take the site require (`reauth.guard`). */
  reauth: ReauthProofs;
  /** The Activity log: every change calls `activity.record(request, { kind, summary, before, after })`. */
  activity: ActivityLog;
  mailer: Mailer;
  /** Tells the other server processes that something they cache changed (see shared-state/). */
  changes: SharedChanges;
  /** Locks held in the store, so they hold across server processes and machines. */
  leases: StoreLeases;
  log: FastifyBaseLogger;
  /** The busiest public reads, answered before Fastify (see http/fast-lane.ts). */
  fastLane: FastLane;
  /**
   * Restarts the server with its saved settings (under `npm start`'s supervisor: without
   * dropping a request). Never rejects; callers that do not care may ignore the outcome.
   */
  requestRestart: () => Promise<RestartOutcome>;
}

/** What the context is made from: buildApp's own deps (app.ts's AppDeps) that reach it. */
export interface ContextDeps {
  config: Readonly<Config>;
  store: Store;
  /** Tests shorten the mail queue's retry schedule (mail/mail-queue.ts has the product's). */
  mailRetryDelaysMs?: readonly number[];
  /** Restarts the server (the console's restart); main.ts provides it. */
  requestRestart?: () => Promise<RestartOutcome> | undefined;
}

/**
 * Opens the shared parts on the store (their indexes made, expired sessions swept, the first
 * administrator made from ADMIN_EMAIL), and stops them when `app` closes.
 */
export async function createAppContext(
  app: FastifyInstance,
  deps: ContextDeps,
  fastLane: FastLane,
): Promise<AppContext> {
  const { config, store } = deps;
  const users = new UsersRepository(store);
  await users.init();
  await ensureAdmin(users, config.admin, app.log);
  // What other server processes change and this one caches, seen within a second (polled).
  const changes = new SharedChanges(store, app.log);
  await changes.init();
  changes.start();
  app.addHook('onClose', () => changes.stop());
  const slideshowSettings = new SlideshowSettingsRepository(store, changes);
  await slideshowSettings.init();
  const mediaFolder = new MediaFolderRepository(store, config.mediaDir);
  await mediaFolder.init();
  const site = new SiteSettingsRepository(store, changes);
  await site.init();
  const tokenKey = await loadTokenKey(config.dataDir, config.jwtSecret);
  const tokens = new TokenService(tokenKey);
  const activityEntries = new ActivityRepository(store);
  await activityEntries.init();
  const activity = new ActivityLog(activityEntries, app.log, config.activityRetentionDays);
  const sessionsRepository = new SessionsRepository(store);
  await sessionsRepository.init();
  const sessions = new SessionsService(sessionsRepository, tokens, app.log);
  await sessions.sweepExpired();
  const mailer = await createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log: app.log,
    retryDelaysMs: deps.mailRetryDelaysMs,
  });
  // A send in progress may finish; a claim left behind goes back to the queue for the next process.
  app.addHook('onClose', () => mailer.close());
  return {
    config,
    store,
    users,
    slideshowSettings,
    mediaFolder,
    site,
    tokenKey,
    tokens,
    sessions,
    mailer,
    changes,
    leases: new StoreLeases(store),
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
}
