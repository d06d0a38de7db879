import {
  complaintBody,
  type MailMembersDoneResponse,
  type StoppedListResponse,
} from '@common/schemas/mail-members';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { parseInput } from '../../../lib/validate';
import type { PreferencesService } from './preferences.service';

/** /api/admin/mail/stops: the addresses bulk mail stopped for, and why; the owner marks complaints. */
export function stopsRoutes(preferences: PreferencesService, ctx: Pick<AppContext, 'activity'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: StoppedListResponse }>('/', async () => ({
      success: true,
      data: await preferences.stopped(),
    }));

    app.post<{ Reply: MailMembersDoneResponse }>('/', async (request) => {
      const { email } = parseInput(complaintBody, request.body);
      await preferences.markComplaint(email);
      await ctx.activity.record(request, {
        kind: 'mail.complaint',
        summary: `Marked ${email} as complaining: no more bulk mail`,
      });
      return { success: true, message: `No more announcements or lesson news go to ${email}.` };
    });
  };
}
