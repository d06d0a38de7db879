import type { HtmlPage } from '@common/schemas/envelopes';
import {
  type MailPreferences,
  type PreferencesResponse,
  preferencesBody,
} from '@common/schemas/mail-members';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../../app-context';
import { parseInput } from '../../../lib/validate';
import type { PreferencesService } from './preferences.service';
import { unsubscribePage } from './unsubscribe-page';

/** The page's own policy: its inline style and its forms posting back to itself, nothing else. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/**
 * /api/mail: the member's own preferences (signed in, from /account), and the unsubscribe
 * address of every bulk mail: GET shows a page and changes nothing; POST unsubscribes (a mail
 * program's one click, RFC 8058, or the page's button) or saves the page's choices.
 */
export function preferencesRoutes(preferences: PreferencesService, ctx: Pick<AppContext, 'guards' | 'site'>) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get<{ Reply: PreferencesResponse }>(
      '/preferences',
      { preHandler: ctx.guards.requireUser },
      async (request) => ({
        success: true,
        data: await preferences.of(request.user!._id),
      }),
    );

    app.put<{ Reply: PreferencesResponse }>(
      '/preferences',
      { preHandler: ctx.guards.requireUser },
      async (request) => ({
        success: true,
        data: await preferences.save(request.user!._id, parseInput(preferencesBody, request.body)),
      }),
    );

    const page = async (reply: FastifyReply, token: string, done?: string) => {
      const { userId, kind, email } = await preferences.byToken(token);
      const current = await preferences.of(userId);
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', PAGE_POLICY)
        .send(unsubscribePage({ site: await ctx.site.name(), email, kind, preferences: current, done }));
    };

    app.get<{ Params: { token: string }; Reply: HtmlPage }>('/unsubscribe/:token', async (request, reply) =>
      page(reply, request.params.token),
    );

    app.post<{ Params: { token: string }; Body: Record<string, string> | undefined; Reply: HtmlPage }>(
      '/unsubscribe/:token',
      async (request, reply) => {
        const { token } = request.params;
        const form = request.body ?? {};
        if (form.action === 'choose') {
          const { userId } = await preferences.byToken(token);
          const chosen: MailPreferences = {
            announcements: form.announcements === 'on',
            lessons: form.lessons === 'on',
          };
          await preferences.save(userId, chosen);
          return page(reply, token, 'Your choices are saved.');
        }
        // RFC 8058 (`List-Unsubscribe=One-Click`), the page's button, or any other POST to it.
        await preferences.unsubscribe(token);
        if (form.action === 'unsubscribe') return page(reply, token, 'You are unsubscribed.');
        return reply.type('text/plain; charset=utf-8').send('Unsubscribed.');
      },
    );
  };
}
