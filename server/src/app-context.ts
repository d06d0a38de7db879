import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { ActivityLog } from './features/activity/activity.service';
import type { Guards } from './features/auth/auth.guard';
import type { ReauthProofs } from './features/auth/reauth';
import type { TokenService } from './features/auth/token-service';
import type { SessionsService } from './features/sessions/sessions.service';
import type { SliderConfigRepository } from './features/slider/slider-config.repository';
import type { UsersRepository } from './features/users/users.repository';
import type { Mailer } from './mail/mailer';
import type { Store } from './store/store';

/** The answer to a restart request: where the server will listen next, or why it cannot restart. */
export type RestartOutcome = { started: true; port: number } | { started: false; message: string };

/** What every feature's routes are built from. Made once, in buildApp. */
export interface AppContext {
  config: Readonly<Config>;
  store: Store;
  users: UsersRepository;
  /** Slider settings; also where the media library's base path is kept. */
  sliderConfig: SliderConfigRepository;
  tokens: TokenService;
  /** Server-side sessions: start, check, end (see features/sessions). */
  sessions: SessionsService;
  guards: Guards;
  /** The password-confirmation proof that changes able to take the site require (`reauth.guard`). */
  reauth: ReauthProofs;
  /** The Activity log: every change calls `activity.record(request, { kind, summary, before, after })`. */
  activity: ActivityLog;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /**
   * Restarts the server with its saved settings (under `npm start`'s supervisor: without
   * dropping a request). Never rejects; callers that do not care may ignore the outcome.
   */
  requestRestart: () => Promise<RestartOutcome>;
}
