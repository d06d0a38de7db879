import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordBody,
  loginBody,
  registerBody,
  resetPasswordBody,
  resetTokenParam,
} from '@common/schemas/auth';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import { clientOf } from '../sessions/client-info';
import { toPublicUser } from '../users/users.repository';
import type { Guards } from './auth.guard';
import type { AuthService } from './auth.service';
import type { SignInLimiter } from './sign-in-limiter';

/** Sign-up, sign-in, sign-out and password reset. */
export function authRoutes(auth: AuthService, guards: Guards, limiter: SignInLimiter) {
  return async (app: FastifyInstance) => {
    app.post('/register', async (request, reply) => {
      const body = parseInput(registerBody, request.body);
      await limiter.limitRegistration(reply);
      const { token } = await auth.register(body, clientOf(request));
      return reply.code(201).send({ token, msg: 'Registration successful' });
    });

    app.post('/login', async (request, reply) => {
      const body = parseInput(loginBody, request.body);
      const tries = await limiter.limitPasswordCheck(request, reply, body.email);
      const { token } = await auth.login(body, clientOf(request));
      await limiter.succeeded(tries);
      return { token, msg: 'Login successful' };
    });

    app.post('/forgot-password', async (request, reply) => {
      const { email } = parseInput(forgotPasswordBody, request.body);
      await limiter.limitReset(request, reply, email);
      // Not awaited: the answer goes first and takes the same time whether or not the account exists.
      auth.forgotPassword(email);
      return { message: FORGOT_PASSWORD_MESSAGE };
    });

    app.get('/me', { onRequest: guards.requireUser }, async (request) => ({
      success: true,
      data: toPublicUser(request.user!),
    }));

    // Ends this session on the server; the client forgets its token as well.
    app.post('/logout', { onRequest: guards.requireUser }, async (request) => {
      await auth.logout(request.sessionId!);
      return { success: true, message: 'Signed out.' };
    });

    app.put('/reset-password/:token', async (request) => {
      const { token } = parseInput(resetTokenParam, request.params);
      const { password } = parseInput(resetPasswordBody, request.body);
      await auth.resetPassword(token, password);
      return { message: 'Password reset successful' };
    });
  };
}
