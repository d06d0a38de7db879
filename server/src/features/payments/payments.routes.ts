import {
  type CourseOfferResponse,
  checkoutBody,
  courseCheckoutBody,
  type MemberBillingResponse,
  type PaymentPlansResponse,
  portalBody,
  type RedirectResponse,
  type WebhookAnswer,
} from '@common/schemas/payments';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { CourseSales } from './course-sales';
import type { PaymentsService } from './payments.service';
import type { PaymentsWebhook } from './payments-webhook';

/**
 * Stripe's events reach past the 16 KB that strangers may send (an invoice with its lines runs to
 * tens of KB, a few hundred at most); they prove who sent them by their signature, checked before
 * anything is read from them.
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** /api/payments: the prices and a course's offer (anyone), a member's own billing, checkouts and portal, and Stripe's webhook. */
export function paymentsRoutes(
  service: PaymentsService,
  sales: CourseSales,
  webhook: PaymentsWebhook,
  ctx: Pick<AppContext, 'guards'>,
) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: PaymentPlansResponse }>('/plans', async () => ({
      success: true,
      ...(await service.plans()),
    }));

    app.get<{ Params: { courseId: string }; Reply: CourseOfferResponse }>(
      '/courses/:courseId',
      async (request) => ({ success: true, data: await sales.offer(String(request.params.courseId)) }),
    );

    await app.register(async (signedIn) => {
      signedIn.addHook('onRequest', ctx.guards.requireUser);

      signedIn.get<{ Reply: MemberBillingResponse }>('/me', async (request) => ({
        success: true,
        data: await service.me(request.user!),
      }));

      signedIn.post<{ Reply: RedirectResponse }>('/checkout', async (request) => {
        const url = await service.checkout(request.user!, parseInput(checkoutBody, request.body));
        return { success: true, url };
      });

      signedIn.post<{ Params: { courseId: string }; Reply: RedirectResponse }>(
        '/courses/:courseId/checkout',
        async (request) => {
          const body = parseInput(courseCheckoutBody, request.body);
          const url = await sales.checkout(request.user!, String(request.params.courseId), body);
          return { success: true, url };
        },
      );

      signedIn.post<{ Reply: RedirectResponse }>('/portal', async (request) => {
        const url = await service.portal(request.user!, parseInput(portalBody, request.body));
        return { success: true, url };
      });
    });

    await app.register(async (stripe) => {
      // The signature covers the exact bytes sent: the body is kept raw, never parsed as JSON first.
      stripe.removeAllContentTypeParsers();
      stripe.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      stripe.post<{ Reply: WebhookAnswer }>(
        '/webhook',
        { bodyLimit: WEBHOOK_BODY_LIMIT, config: { publicBodyLimit: WEBHOOK_BODY_LIMIT } },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const outcome = await webhook.receive(
            payload,
            typeof signature === 'string' ? signature : undefined,
            request,
          );
          return { received: true as const, ...outcome };
        },
      );
    });
  };
}
