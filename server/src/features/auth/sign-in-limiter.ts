import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { RateLimiter } from '../../lib/rate-limiter';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Limits on guessing: per client address and, separately, per targeted e-mail. */
export interface AuthLimits {
  perClient: number;
  perEmail: number;
  windowMs: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { perClient: 100, perEmail: 10, windowMs: FIFTEEN_MINUTES };

/**
 * The one guard on password guessing, made once by buildApp: sign-in, forgot-password and every
 * check of a signed-in member's current password (account changes) count against the same
 * budgets, so a stolen session cannot guess the password faster than the sign-in form could.
 */
export class SignInLimiter {
  private readonly byClient: RateLimiter;
  private readonly byEmail: RateLimiter;

  constructor(limits: AuthLimits = DEFAULT_AUTH_LIMITS) {
    this.byClient = new RateLimiter(limits.perClient, limits.windowMs);
    this.byEmail = new RateLimiter(limits.perEmail, limits.windowMs);
  }

  /** Counts one attempt at `action` on `email`; throws RATE_LIMITED when over a budget. */
  limit(request: FastifyRequest, action: string, email: string): void {
    const wait = Math.max(
      this.byClient.hit(`${action}:${request.ip}`),
      this.byEmail.hit(`${action}:${email}`),
    );
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw new AppError(
        'RATE_LIMITED',
        `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
  }

  /** After the right password: the e-mail's budget starts again. */
  succeeded(action: string, email: string): void {
    this.byEmail.reset(`${action}:${email}`);
  }
}
