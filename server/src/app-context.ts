import type { FastifyBaseLogger } from 'fastify';
import type { ActivityLog } from './features/activity/activity.service';
import type { Guards } from './features/auth/auth.guard';
import type { ReauthProofs } from './features/auth/reauth';
import type { TokenService } from './features/auth/token-service';
import type { MediaFolderRepository } from './features/media/media-folder.repository';
import type { SessionsService } from './features/sessions/sessions.service';
import type { SharedChanges } from './features/shared-state/shared-changes';
import type { StoreLeases } from './features/shared-state/store-lease';
import type { SlideshowSettingsRepository } from './features/slideshow/slideshow-settings.repository';
import type { UsersRepository } from './features/users/users.repository';
import type { FastLane } from './http/fast-lane';
import type { Mailer } from './mail/mailer';
import type { RestartOutcome } from './process/protocol';
import type { Config } from './settings/config';
import type { Store } from './store/store';

/** What every feature's routes are built from. Made once, in buildApp. */
export interface AppContext {
  config: Readonly<Config>;
  store: Store;
  users: UsersRepository;
  /** The slideshow's settings, and the revision that cached public slides follow. */
  slideshowSettings: SlideshowSettingsRepository;
  /** The media library's folder (the spec's `backgroundsBasePath`). */
  mediaFolder: MediaFolderRepository;
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
