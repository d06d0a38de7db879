import { identityBody, type MailIdentityResponse } from '@common/schemas/mail-members';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { parseInput } from '../../../lib/validate';
import type { IdentityService } from './identity.service';

/** /api/admin/mail/identity: the From address, the DKIM key, the DNS records to publish. Never the private key. */
export function identityRoutes(identity: IdentityService, ctx: Pick<AppContext, 'activity'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: MailIdentityResponse }>('/', async () => ({
      success: true,
      data: await identity.view(),
    }));

    app.put<{ Reply: MailIdentityResponse }>('/', async (request) => {
      const { from } = parseInput(identityBody, request.body);
      const saved = await identity.saveFrom(from);
      await ctx.activity.record(request, { kind: 'mail.settings', summary: `Mail now comes from ${from}` });
      return { success: true, data: saved };
    });

    app.post<{ Reply: MailIdentityResponse }>('/dkim', async (request) => {
      const made = await identity.makeDkimKey();
      await ctx.activity.record(request, {
        kind: 'mail.settings',
        summary: `DKIM key made (selector ${made.dkim?.selector})`,
      });
      return { success: true, data: made };
    });
  };
}
