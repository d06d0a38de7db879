import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordBody,
  loginBody,
  registerBody,
  resetPasswordBody,
  resetTokenParam,
} from '@common/schemas/auth';
import { reauthBody } from '@common/schemas/reauth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { RateLimiter } from '../../lib/rate-limiter';
import { parseInput } from '../../lib/validate';
import type { ActivityLog } from '../activity/activity.service';
import { toPublicUser, type UsersRepository } from '../users/users.repository';
import type { Guards } from './auth.guard';
import type { AuthService } from './auth.service';
import { verifyPassword } from './passwords';
import { bearerOf, type ReauthProofs } from './reauth';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Limits on guessing: per client address and, separately, per targeted e-mail. */
export interface AuthLimits {
  perClient: number;
  perEmail: number;
  windowMs: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { perClient: 100, perEmail: 10, windowMs: FIFTEEN_MINUTES };

/** What the console's trust features need here: the Activity log and the password-confirmation proofs. */
export interface AuthAudit {
  activity: ActivityLog;
  reauth: ReauthProofs;
  users: UsersRepository;
}

export function authRoutes(
  auth: AuthService,
  guards: Guards,
  audit: AuthAudit,
  limits: AuthLimits = DEFAULT_AUTH_LIMITS,
) {
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
      const { token, user } = await auth.login(body).catch(async (error: unknown) => {
        // Failed sign-ins to an administrator's account go to the Activity log.
        const target = await audit.users.findByEmail(body.email);
        if (target?.role === 'admin') {
          const actor = { id: target._id, email: target.email };
          await audit.activity.record(request, {
            kind: 'signin.failed',
            summary: `Failed sign-in as ${target.email}`,
            actor,
          });
        }
        throw error;
      });
      byEmail.reset(`login:${body.email}`);
      if (user.role === 'admin') {
        const actor = { id: user._id, email: user.email };
        await audit.activity.record(request, {
          kind: 'signin.succeeded',
          summary: `${user.email} signed in`,
          actor,
        });
      }
      return { token, msg: 'Login successful' };
    });

    app.post('/forgot-password', async (request) => {
      const { email } = parseInput(forgotPasswordBody, request.body);
      limit(request, 'forgot', email);
      await auth.forgotPassword(email);
      return { message: FORGOT_PASSWORD_MESSAGE };
    });

    // The password typed again before a change that can take the site; counts against the sign-in limits.
    app.post('/reauth', { onRequest: guards.requireAdmin }, async (request) => {
      const { password } = parseInput(reauthBody, request.body);
      const user = request.user!;
      limit(request, 'login', user.email);
      if (!(await verifyPassword(user.password, password))) {
        await audit.activity.record(request, {
          kind: 'reauth.failed',
          summary: 'Wrong password typed to confirm a change',
        });
        throw new AppError('INVALID_CREDENTIALS', 'That password is not right.');
      }
      byEmail.reset(`login:${user.email}`);
      const { proof, expiresAt } = await audit.reauth.issue(user, bearerOf(request)!);
      return { success: true, proof, expiresAt: expiresAt.toISOString() };
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
