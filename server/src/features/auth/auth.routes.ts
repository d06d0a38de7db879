import {
  type AuthResponse,
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordBody,
  type LogoutResponse,
  loginBody,
  type MeResponse,
  type MessageResponse,
  registerBody,
  resetPasswordBody,
  resetTokenParam,
} from '@common/schemas/auth';
import { type ReauthResponse, reauthBody } from '@common/schemas/reauth';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import type { ActivityLog } from '../activity/activity.service';
import { clientOf } from '../sessions/client-info';
import { verifyPassword } from '../users/passwords';
import { toPublicUser, type UsersRepository } from '../users/users.repository';
import type { Guards } from './auth.guard';
import { bearerToken } from './auth.guard';
import type { AuthService } from './auth.service';
import type { ReauthProofs } from './reauth';
import type { SignInLimiter } from './sign-in-limiter';

/**
 * What the routes read of the app's context: the guards, and for the console's trust features the
 * Activity log and the password-confirmation proofs. Spelled out, not a Pick of AppContext: the
 * context holds this feature's guards and proofs, so naming it here would tie the two both ways.
 */
export interface AuthRoutesContext {
  guards: Guards;
  activity: ActivityLog;
  reauth: ReauthProofs;
  users: UsersRepository;
}

/** Sign-up, sign-in, sign-out, password reset and the password typed again before a system change. */
export function authRoutes(auth: AuthService, limiter: SignInLimiter, ctx: AuthRoutesContext) {
  return async (app: FastifyInstance) => {
    app.post<{ Reply: AuthResponse }>('/register', async (request, reply) => {
      const body = parseInput(registerBody, request.body);
      await limiter.limitRegistration(request, reply);
      const { token } = await auth.register(body, clientOf(request));
      return reply.code(201).send({ token, msg: 'Registration successful' });
    });

    app.post<{ Reply: AuthResponse }>('/login', async (request, reply) => {
      const body = parseInput(loginBody, request.body);
      const tries = await limiter.limitPasswordCheck(request, reply, body.email);
      const { token, user } = await auth.login(body, clientOf(request)).catch(async (error: unknown) => {
        // Failed sign-ins to an administrator's account go to the Activity log.
        const target = await ctx.users.findByEmail(body.email);
        if (target?.role === 'admin') {
          const actor = { id: target._id, email: target.email };
          await ctx.activity.record(request, {
            kind: 'signin.failed',
            summary: `Failed sign-in as ${target.email}`,
            actor,
          });
        }
        throw error;
      });
      await limiter.succeeded(tries);
      if (user.role === 'admin') {
        const actor = { id: user._id, email: user.email };
        await ctx.activity.record(request, {
          kind: 'signin.succeeded',
          summary: `${user.email} signed in`,
          actor,
        });
      }
      return { token, msg: 'Login successful' };
    });

    app.post<{ Reply: MessageResponse }>('/forgot-password', async (request, reply) => {
      const { email } = parseInput(forgotPasswordBody, request.body);
      await limiter.limitReset(request, reply, email);
      // Not awaited: the answer goes first and takes the same time whether or not the account exists.
      auth.forgotPassword(email);
      return { message: FORGOT_PASSWORD_MESSAGE };
    });

    // The password typed again before a change that can take the site; counts against the sign-in limits.
    app.post<{ Reply: ReauthResponse }>(
      '/reauth',
      { onRequest: ctx.guards.requireAdmin },
      async (request, reply) => {
        const { password } = parseInput(reauthBody, request.body);
        const user = request.user!;
        const tries = await limiter.limitPasswordCheck(request, reply, user.email);
        if (!(await verifyPassword(user.password, password))) {
          await ctx.activity.record(request, {
            kind: 'reauth.failed',
            summary: 'Wrong password typed to confirm a change',
          });
          throw new AppError('INVALID_CREDENTIALS', 'That password is not right.');
        }
        await limiter.succeeded(tries);
        const { proof, expiresAt } = await ctx.reauth.issue(user, request.sessionId!, bearerToken(request)!);
        return { success: true, proof, expiresAt: expiresAt.toISOString() };
      },
    );

    app.get<{ Reply: MeResponse }>('/me', { onRequest: ctx.guards.requireUser }, async (request) => ({
      success: true,
      data: toPublicUser(request.user!),
    }));

    // Ends this session on the server; the client forgets its token as well.
    app.post<{ Reply: LogoutResponse }>('/logout', { onRequest: ctx.guards.requireUser }, async (request) => {
      await auth.logout(request.sessionId!);
      return { success: true, message: 'Signed out.' };
    });

    app.put<{ Reply: MessageResponse }>('/reset-password/:token', async (request) => {
      const { token } = parseInput(resetTokenParam, request.params);
      const { password } = parseInput(resetPasswordBody, request.body);
      await auth.resetPassword(token, password);
      return { message: 'Password reset successful' };
    });
  };
}
