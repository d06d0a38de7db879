import { type MailRetryResponse, type MailStatusResponse, mailIdParam } from '@common/schemas/mail';
import { type BulkSettingsResponse, bulkSettingsBody } from '@common/schemas/mail-members';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import type { MailSettingsRepository } from './mail-settings.repository';

/**
 * /api/admin/mail: the mail queue's state for the console, and how fast bulk mail goes out; the
 * admin scope has checked the caller.
 */
export function mailRoutes(settings: MailSettingsRepository, ctx: Pick<AppContext, 'mailer' | 'activity'>) {
  const { mailer } = ctx;
  return async (app: FastifyInstance) => {
    app.get<{ Reply: MailStatusResponse }>('/', async () => ({ success: true, data: await mailer.status() }));

    app.post<{ Reply: MailRetryResponse }>('/:id/retry', async (request) => {
      const { id } = parseInput(mailIdParam, request.params);
      if (!(await mailer.retryNow(id))) {
        throw new AppError(
          'CONFLICT',
          'That message is no longer waiting: it is being sent, was sent, or failed.',
        );
      }
      return { success: true, message: 'Sending it now.' };
    });

    app.get<{ Reply: BulkSettingsResponse }>('/settings', async () => ({
      success: true,
      data: await settings.bulk(),
    }));

    app.put<{ Reply: BulkSettingsResponse }>('/settings', async (request) => {
      const wanted = parseInput(bulkSettingsBody, request.body);
      const before = await settings.bulk();
      await settings.saveBulk(wanted);
      await ctx.activity.record(request, {
        kind: 'mail.settings',
        summary: 'Mail settings saved',
        before,
        after: wanted,
      });
      return { success: true, data: await settings.bulk() };
    });
  };
}
