import {
  changeEmailBody,
  changePasswordBody,
  confirmEmailBody,
  deleteAccountBody,
  updateNameBody,
} from '@common/schemas/account';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { Guards } from '../auth/auth.guard';
import type { SignInLimiter } from '../auth/sign-in-limiter';
import type { AccountService } from './account.service';

/**
 * The member's own account. No route takes a user id: each acts on the user whose session the
 * guard checked. Every check of the current password counts against the sign-in limits.
 */
export function accountRoutes(account: AccountService, guards: Guards, limiter: SignInLimiter) {
  return async (app: FastifyInstance) => {
    const me = (request: FastifyRequest) => request.user!;

    /** Runs `work`, which checks the member's password, under the sign-in form's budgets. */
    async function withPasswordCheck<R>(
      request: FastifyRequest,
      reply: FastifyReply,
      work: () => Promise<R>,
    ): Promise<R> {
      const tries = await limiter.limitPasswordCheck(request, reply, me(request).email);
      const result = await work();
      await limiter.succeeded(tries);
      return result;
    }

    // Opened from the mailed link, perhaps on a device where the member is not signed in.
    app.post('/confirm-email', async (request) => {
      const { token } = parseInput(confirmEmailBody, request.body);
      return { success: true, message: await account.confirmEmail(token) };
    });

    await app.register(async (signedIn) => {
      signedIn.addHook('onRequest', guards.requireUser);

      signedIn.get('/', async (request) => ({
        success: true,
        data: await account.overview(me(request), request.sessionId!),
      }));

      signedIn.put('/name', async (request) => {
        const { name } = parseInput(updateNameBody, request.body);
        return { success: true, data: await account.rename(me(request), name), message: 'Name saved.' };
      });

      signedIn.post('/email', async (request, reply) => {
        const { email, password } = parseInput(changeEmailBody, request.body);
        const message = await withPasswordCheck(request, reply, () =>
          account.requestEmailChange(me(request), email, password),
        );
        return { success: true, message };
      });

      signedIn.put('/password', async (request, reply) => {
        const { currentPassword, newPassword } = parseInput(changePasswordBody, request.body);
        const ended = await withPasswordCheck(request, reply, () =>
          account.changePassword(me(request), request.sessionId!, currentPassword, newPassword),
        );
        return {
          success: true,
          ended,
          message: 'Password changed. You were signed out everywhere else.',
        };
      });

      signedIn.post('/sign-out-everywhere', async (request) => {
        const ended = await account.signOutEverywhere(me(request));
        return { success: true, ended, message: 'Signed out everywhere.' };
      });

      signedIn.get('/export', async (request, reply) => {
        const data = await account.exportData(me(request), request.sessionId!);
        const day = data.exportedAt.slice(0, 10);
        return reply
          .header('content-disposition', `attachment; filename="my-data-${day}.json"`)
          .header('cache-control', 'no-store')
          .send(data);
      });

      signedIn.post('/delete', async (request, reply) => {
        const { password } = parseInput(deleteAccountBody, request.body);
        await withPasswordCheck(request, reply, () => account.deleteAccount(me(request), password));
        return { success: true, message: 'Your account has been deleted.' };
      });
    });
  };
}
