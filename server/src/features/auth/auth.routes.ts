import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordBody,
  loginBody,
  registerBody,
  resetPasswordBody,
  resetTokenParam,
} from '@common/schemas/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import { MemoryRateCounters, type RateCounters } from '../../lib/rate-limiter';
import { parseInput } from '../../lib/validate';
import { toPublicUser } from '../users/users.repository';
import type { Guards } from './auth.guard';
import type { AuthService } from './auth.service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_MINUTE = 60 * 1000;

/** Limits on guessing and on sign-ups. */
export interface AuthLimits {
  /** Sign-in and reset requests from one address, whatever the e-mail. */
  perClient: number;
  /** Sign-in tries for one account from one address (a success starts afresh). */
  perAccountPerClient: number;
  /**
   * Sign-in tries for one account from all addresses together. Past it, only an address that has
   * not tried that account yet may try, once: a spread-out guesser is slowed to one try per
   * address while the owner, signing in from an address of their own, is never refused.
   */
  perAccount: number;
  /** Reset mails asked for one e-mail (each one lands in the owner's inbox). */
  resetsPerEmail: number;
  windowMs: number;
  /** New accounts per minute from all addresses together. */
  registrationsPerMinute: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  perClient: 100,
  perAccountPerClient: 10,
  perAccount: 100,
  resetsPerEmail: 10,
  windowMs: FIFTEEN_MINUTES,
  registrationsPerMinute: 60,
};

function tooManyAttempts(reply: FastifyReply, wait: number, message = 'Too many attempts.'): AppError {
  reply.header('retry-after', String(wait));
  const minutes = Math.ceil(wait / 60);
  return new AppError(
    'RATE_LIMITED',
    `${message} Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

export function authRoutes(
  auth: AuthService,
  guards: Guards,
  limits: AuthLimits = DEFAULT_AUTH_LIMITS,
  counters: RateCounters = new MemoryRateCounters(),
) {
  return async (app: FastifyInstance) => {
    const { windowMs } = limits;

    async function limitClient(request: FastifyRequest, reply: FastifyReply, action: string) {
      const wait = await counters.hit(`${action}:${clientKey(request.ip)}`, limits.perClient, windowMs);
      if (wait > 0) throw tooManyAttempts(reply, wait);
    }

    /**
     * The sign-in rule: see AuthLimits. Tries are counted before the password is checked (so
     * parallel guesses count too); a success takes its own try back.
     */
    async function limitSignIn(request: FastifyRequest, reply: FastifyReply, email: string) {
      await limitClient(request, reply, 'login');
      const account = `login:${email}`;
      const pair = `${account}:${clientKey(request.ip)}`;
      const [total, tried] = await Promise.all([counters.peek(account), counters.peek(pair)]);
      if (total.count >= limits.perAccount && tried.count > 0) throw tooManyAttempts(reply, total.wait);
      const wait = await counters.hit(pair, limits.perAccountPerClient, windowMs);
      if (wait > 0) throw tooManyAttempts(reply, wait);
      await counters.hit(account, Number.POSITIVE_INFINITY, windowMs);
      return { account, pair };
    }

    app.post('/register', async (request, reply) => {
      const body = parseInput(registerBody, request.body);
      const wait = await counters.hit('register', limits.registrationsPerMinute, ONE_MINUTE);
      if (wait > 0) throw tooManyAttempts(reply, wait, 'Too many new accounts right now.');
      const { token } = await auth.register(body);
      return reply.code(201).send({ token, msg: 'Registration successful' });
    });

    app.post('/login', async (request, reply) => {
      const body = parseInput(loginBody, request.body);
      const tries = await limitSignIn(request, reply, body.email);
      const { token } = await auth.login(body);
      // Only this try comes off the account-wide count: the owner signing in must not give a
      // guesser elsewhere a fresh budget.
      await Promise.all([counters.reset(tries.pair), counters.refund(tries.account)]);
      return { token, msg: 'Login successful' };
    });

    app.post('/forgot-password', async (request, reply) => {
      const { email } = parseInput(forgotPasswordBody, request.body);
      await limitClient(request, reply, 'forgot');
      const wait = await counters.hit(`forgot:${email}`, limits.resetsPerEmail, windowMs);
      if (wait > 0) throw tooManyAttempts(reply, wait);
      // Not awaited: the answer goes first and takes the same time whether or not the account exists.
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
