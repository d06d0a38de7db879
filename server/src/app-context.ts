import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Guards } from './features/auth/auth.guard';
import type { TokenService } from './features/auth/token-service';
import type { SliderConfigRepository } from './features/slider/slider-config.repository';
import type { UsersRepository } from './features/users/users.repository';
import type { Mailer } from './mail/mailer';
import type { Store } from './store/store';

/** What every feature's routes are built from. Made once, in buildApp. */
export interface AppContext {
  config: Readonly<Config>;
  store: Store;
  users: UsersRepository;
  /** Slider settings; also where the media library's base path is kept. */
  sliderConfig: SliderConfigRepository;
  tokens: TokenService;
  guards: Guards;
  mailer: Mailer;
  log: FastifyBaseLogger;
  requestRestart: () => void;
}
