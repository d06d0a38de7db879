import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordBody,
  loginBody,
  registerBody,
  resetPasswordBody,
  resetTokenParam,
} from '@common/schemas/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { RateLimiter } from '../../lib/rate-limiter';
import { parseInput } from '../../lib/validate';
import { toPublicUser } from '../users/users.repository';
import type { Guards } from './auth.guard';
import type { AuthService } from './auth.service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Limits on guessing: per client address and, separately, per targeted e-mail. */
export interface AuthLimits {
  perClient: number;
  perEmail: number;
  windowMs: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { perClient: 100, perEmail: 10, windowMs: FIFTEEN_MINUTES };

export function authRoutes(auth: AuthService, guards: Guards, limits: AuthLimits = DEFAULT_AUTH_LIMITS) {
  return async (app: FastifyInstance) => {
    const byClient = new RateLimiter(limits.perClient, limits.windowMs);
    const byEmail = new RateLimiter(limits.perEmail, limits.windowMs);

    function limit(request: FastifyRequest, action: string, email: string) {
      const wait = Math.max(byClient.hit(`${action}:${request.ip}`), byEmail.hit(`${action}:${email}`));
      if (wait > 0) {
        const minutes = Math.ceil(wait / 60);
        throw new AppError(
          'RATE_LIMITED',
          `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        );
      }
    }

    app.post('/register', async (request, reply) => {
      const body = parseInput(registerBody, request.body);
      const { token } = await auth.register(body);
      return reply.code(201).send({ token, msg: 'Registration successful' });
    });

    app.post('/login', async (request) => {
      const body = parseInput(loginBody, request.body);
      limit(request, 'login', body.email);
      const { token } = await auth.login(body);
      byEmail.reset(`login:${body.email}`);
      return { token, msg: 'Login successful' };
    });

    app.post('/forgot-password', async (request) => {
      const { email } = parseInput(forgotPasswordBody, request.body);
      limit(request, 'forgot', email);
      auth.forgotPassword(email);
      return { message: FORGOT_PASSWORD_MESSAGE };
    });

    app.get('/me', { onRequest: guards.requireUser }, async (request) => ({
      success: true,
      data: toPublicUser(request.user!),
    }));

    app.put('/reset-password/:token', async (request) => {
      const { token } = parseInput(resetTokenParam, request.params);
      const { password } = parseInput(resetPasswordBody, request.body);
      await auth.resetPassword(token, password);
      return { message: 'Password reset successful' };
    });
  };
}
