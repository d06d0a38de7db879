import type { FastifyBaseLogger } from 'fastify';
import type { Feature } from '../../feature';
import type { IdentifyCaller } from '../../http/api-rate-limit';
import { SharedRateCounters } from '../../lib/rate-limiter';
import type { Mailer } from '../../mail/mailer';
import type { Config } from '../../settings/config';
import type { Store } from '../../store/store';
import type { SessionsService } from '../sessions/sessions.service';
import type { TokenService } from '../sessions/token-service';
import { type AuthRoutesContext, authRoutes } from './auth.routes';
import { AuthService } from './auth.service';
import { identifyCaller } from './identify-caller';
import { type AuthLimits, SignInLimiter } from './sign-in-limiter';

export type { AuthLimits } from './sign-in-limiter';

/** What the auth feature hands the features built after it, and buildApp's rate limit. */
export interface AuthFeature extends Feature {
  /** Sign-in and every check of a signed-in member's password share one set of budgets. */
  limiter: SignInLimiter;
  /** Who the general rate limit counts a request against. */
  identify: IdentifyCaller;
}

/**
 * The slice of the app's context this feature reads, spelled out rather than a Pick of
 * AppContext: the context holds this feature's guards and proofs (auth.guard.ts, reauth.ts).
 */
export interface AuthContext extends AuthRoutesContext {
  config: Pick<Config, 'publicUrl'>;
  store: Pick<Store, 'counters'>;
  sessions: SessionsService;
  tokens: TokenService;
  mailer: Mailer;
  /** The site's name, which the reset mail comes from. */
  site: { name(): Promise<string> };
  log: FastifyBaseLogger;
}

/** `/api/auth`: sign-up, sign-in and out, the password reset, and the password typed again (reauth). */
export async function createAuthFeature(
  ctx: AuthContext,
  needs: { limits?: AuthLimits } = {},
): Promise<AuthFeature> {
  const limiter = new SignInLimiter(new SharedRateCounters(ctx.store.counters, 'sign-in:'), needs.limits);
  const auth = new AuthService({
    users: ctx.users,
    sessions: ctx.sessions,
    mailer: ctx.mailer,
    siteName: () => ctx.site.name(),
    publicUrl: ctx.config.publicUrl,
    log: ctx.log,
  });
  return {
    name: 'auth',
    routes: [{ prefix: '/api/auth', plugin: authRoutes(auth, limiter, ctx) }],
    limiter,
    identify: identifyCaller(ctx),
  };
}
