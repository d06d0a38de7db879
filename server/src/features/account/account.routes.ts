import {
  type AccountDoneResponse,
  type AccountExportResponse,
  type AccountNameResponse,
  type AccountResponse,
  changeEmailBody,
  changePasswordBody,
  confirmEmailBody,
  deleteAccountBody,
  type SessionsEndedResponse,
  updateNameBody,
} from '@common/schemas/account';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { SignInLimiter } from '../auth/sign-in-limiter';
import { SUBSCRIPTION_CANCELLED } from '../users/account-removal';
import { toPublicUser } from '../users/users.repository';
import type { AccountService } from './account.service';

/**
 * The member's own account. No route takes a user id: each acts on the user whose session the
 * guard checked. Every check of the current password counts against the sign-in limits, and the
 * mails of an e-mail change against their own (per address and per account).
 */
export function accountRoutes(
  account: AccountService,
  limiter: SignInLimiter,
  ctx: Pick<AppContext, 'guards' | 'activity'>,
) {
  const { guards, activity } = ctx;
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
    app.post<{ Reply: AccountDoneResponse }>('/confirm-email', async (request) => {
      const { token } = parseInput(confirmEmailBody, request.body);
      const { message, user, previousEmail } = await account.confirmEmail(token);
      await activity.record(request, {
        kind: 'account.email-changed',
        summary: `${previousEmail} confirmed the new e-mail ${user.email}`,
        actor: { id: user._id, email: user.email },
        before: { email: previousEmail },
        after: { email: user.email },
      });
      return { success: true, message };
    });

    await app.register(async (signedIn) => {
      signedIn.addHook('onRequest', guards.requireUser);

      signedIn.get<{ Reply: AccountResponse }>('/', async (request) => ({
        success: true,
        data: await account.overview(me(request), request.sessionId!),
      }));

      signedIn.put<{ Reply: AccountNameResponse }>('/name', async (request) => {
        const { name } = parseInput(updateNameBody, request.body);
        const before = me(request).name;
        const data = await account.rename(me(request), name);
        await activity.record(request, {
          kind: 'account.renamed',
          summary: `${data.email} changed their name`,
          before: { name: before },
          after: { name: data.name },
        });
        return { success: true, data, message: 'Name saved.' };
      });

      signedIn.post<{ Reply: AccountDoneResponse }>('/email', async (request, reply) => {
        const { email, password } = parseInput(changeEmailBody, request.body);
        await limiter.limitEmailChange(reply, me(request)._id, email);
        const message = await withPasswordCheck(request, reply, () =>
          account.requestEmailChange(me(request), email, password),
        );
        await activity.record(request, {
          kind: 'account.email-requested',
          summary: `${me(request).email} asked to change their e-mail`,
          after: { email },
        });
        return { success: true, message };
      });

      signedIn.delete<{ Reply: AccountDoneResponse }>('/email-change', async (request) => {
        const { message, email } = await account.cancelEmailChange(me(request));
        await activity.record(request, {
          kind: 'account.email-cancelled',
          summary: `${me(request).email} cancelled their change of e-mail`,
          before: { emailChangeTo: email },
        });
        return { success: true, message };
      });

      signedIn.put<{ Reply: SessionsEndedResponse }>('/password', async (request, reply) => {
        const { currentPassword, newPassword } = parseInput(changePasswordBody, request.body);
        const ended = await withPasswordCheck(request, reply, () =>
          account.changePassword(me(request), request.sessionId!, currentPassword, newPassword),
        );
        await activity.record(request, {
          kind: 'account.password',
          summary: `${me(request).email} changed their password (${ended} other session${ended === 1 ? '' : 's'} ended)`,
        });
        return {
          success: true,
          ended,
          message: 'Password changed. You were signed out everywhere else.',
        };
      });

      signedIn.post<{ Reply: SessionsEndedResponse }>('/sign-out-everywhere', async (request) => {
        const ended = await account.signOutEverywhere(me(request));
        await activity.record(request, {
          kind: 'account.signed-out',
          summary: `${me(request).email} signed out everywhere (${ended} session${ended === 1 ? '' : 's'})`,
        });
        return { success: true, ended, message: 'Signed out everywhere.' };
      });

      signedIn.get<{ Reply: AccountExportResponse }>('/export', async (request, reply) => {
        const data = await account.exportData(me(request), request.sessionId!);
        const day = data.exportedAt.slice(0, 10);
        return reply
          .header('content-disposition', `attachment; filename="my-data-${day}.json"`)
          .header('cache-control', 'no-store')
          .send(data);
      });

      signedIn.post<{ Reply: AccountDoneResponse }>('/delete', async (request, reply) => {
        const { password } = parseInput(deleteAccountBody, request.body);
        const { subscriptionCancelled } = await withPasswordCheck(request, reply, () =>
          account.deleteAccount(me(request), password),
        );
        await activity.record(request, {
          kind: 'account.deleted',
          summary: `${me(request).email} deleted their account${subscriptionCancelled ? SUBSCRIPTION_CANCELLED : ''}`,
          before: toPublicUser(me(request)),
        });
        // After the entry above, so that it goes with the rest.
        await activity.forget(me(request));
        return { success: true, message: 'Your account has been deleted.' };
      });
    });
  };
}
