import type { CertificateObtainedResponse, CertificateStatusResponse } from '@common/schemas/certificates';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { refusalHandler } from '../nginx.routes';
import type { CertificatesService } from './certificates.service';

/**
 * /api/system/certificate: the Nginx panel's HTTPS card. Registered inside the admin-only
 * /api/system scope (app.ts), where nginx's error handler answers refusals (nginx.routes.ts).
 */
export function certificatesRoutes(
  certificates: CertificatesService,
  ctx: Pick<AppContext, 'log' | 'reauth' | 'activity'>,
) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(refusalHandler(ctx.log));

    app.get<{ Reply: CertificateStatusResponse }>('/certificate', async () => ({
      success: true,
      data: await certificates.status(),
    }));

    // It reloads nginx and turns HTTPS on: like a save, it needs the password confirmed recently.
    app.post<{ Reply: CertificateObtainedResponse }>(
      '/certificate',
      { preHandler: ctx.reauth.guard },
      async (request) => {
        const before = await certificates.status();
        const by = request.user?.email ?? 'unknown';
        try {
          const data = await certificates.obtain(request.body, by);
          await ctx.activity.record(request, {
            kind: 'nginx.certificate',
            summary: `Obtained an HTTPS certificate for ${data.domain}`,
            before: before.certificate,
            after: data.certificate,
          });
          return { success: true, message: data.lastTry?.message ?? 'Certificate installed.', data };
        } catch (error) {
          const after = await certificates.status();
          // A failed order is worth a line too: who tried, and why it failed.
          if (after.lastTry && after.lastTry.at !== before.lastTry?.at) {
            await ctx.activity.record(request, {
              kind: 'nginx.certificate-failed',
              summary: `Could not obtain a certificate for ${after.lastTry.domain}: ${after.lastTry.message}`,
            });
          }
          throw error;
        }
      },
    );
  };
}
