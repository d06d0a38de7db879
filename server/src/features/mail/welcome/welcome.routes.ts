import {
  type MailMembersDoneResponse,
  type WelcomeResponse,
  welcomeBody,
  welcomeTestBody,
} from '@common/schemas/mail-members';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { parseInput } from '../../../lib/validate';
import type { WelcomeService } from './welcome.service';

/** /api/admin/mail/welcome: the two welcome mails, and a test of one to the owner. */
export function welcomeRoutes(welcome: WelcomeService, ctx: Pick<AppContext, 'activity'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: WelcomeResponse }>('/', async () => ({ success: true, data: await welcome.read() }));

    app.put<{ Reply: WelcomeResponse }>('/', async (request) => {
      const wanted = parseInput(welcomeBody, request.body);
      const saved = await welcome.save(wanted);
      await ctx.activity.record(request, { kind: 'mail.settings', summary: 'Welcome mails saved' });
      return { success: true, data: saved };
    });

    app.post<{ Reply: MailMembersDoneResponse }>('/test', async (request) => {
      const { subject, markdown } = parseInput(welcomeTestBody, request.body);
      await welcome.sendTest({ subject, markdown }, request.user!);
      return { success: true, message: `A test is on its way to ${request.user!.email}.` };
    });
  };
}
