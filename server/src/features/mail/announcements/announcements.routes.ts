import {
  type AnnouncementCountResponse,
  type AnnouncementListResponse,
  type AnnouncementResponse,
  announcementBody,
  announcementIdParam,
  countBody,
  draftBody,
  type MailMembersDoneResponse,
  type PreviewResponse,
} from '@common/schemas/mail-members';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { parseInput } from '../../../lib/validate';
import type { AnnouncementsService } from './announcements.service';

/** /api/admin/mail/announcements: write, preview, test, count, queue, follow and cancel announcements. */
export function announcementsRoutes(announcements: AnnouncementsService, ctx: Pick<AppContext, 'activity'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: AnnouncementListResponse }>('/', async () => ({
      success: true,
      data: await announcements.list(),
    }));

    app.get<{ Reply: AnnouncementResponse }>('/:id', async (request) => ({
      success: true,
      data: await announcements.get(parseInput(announcementIdParam, request.params).id),
    }));

    app.post<{ Reply: PreviewResponse }>('/preview', async (request) => ({
      success: true,
      data: await announcements.preview(parseInput(draftBody, request.body)),
    }));

    app.post<{ Reply: MailMembersDoneResponse }>('/test', async (request) => {
      const owner = request.user!;
      await announcements.sendTest(parseInput(draftBody, request.body), owner);
      return { success: true, message: `A test is on its way to ${owner.email}.` };
    });

    app.post<{ Reply: AnnouncementCountResponse }>('/count', async (request) => ({
      success: true,
      data: await announcements.count(parseInput(countBody, request.body).segment),
    }));

    app.post<{ Reply: AnnouncementResponse }>('/', async (request, reply) => {
      const input = parseInput(announcementBody, request.body);
      const created = await announcements.create(input, request.user!._id);
      await ctx.activity.record(request, {
        kind: 'mail.announcement',
        summary: `Announcement "${created.subject}" to ${created.segmentLabel}`,
      });
      reply.code(201);
      return { success: true, data: created };
    });

    app.post<{ Reply: AnnouncementResponse }>('/:id/cancel', async (request) => {
      const cancelled = await announcements.cancel(parseInput(announcementIdParam, request.params).id);
      await ctx.activity.record(request, {
        kind: 'mail.cancelled',
        summary: `Announcement "${cancelled.subject}" cancelled`,
      });
      return { success: true, data: cancelled };
    });
  };
}
