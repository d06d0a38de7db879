import { type MailRetryResponse, type MailStatusResponse, mailIdParam } from '@common/schemas/mail';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';

/** /api/admin/mail: the mail queue's state for the console; the admin scope has checked the caller. */
export function mailRoutes(ctx: Pick<AppContext, 'mailer'>) {
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
  };
}
