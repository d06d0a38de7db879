import {
  coursePriceBody,
  type PaymentsOverviewResponse,
  type PaymentsSettingsResponse,
  type PaymentsSettingsView,
  type PaymentsTestResponse,
  type PriceListResponse,
  paymentsSettingsBody,
  paymentsTestBody,
} from '@common/schemas/payments';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { CourseSales } from './course-sales';
import type { PaymentsService } from './payments.service';
import type { PaymentsSettings, SavedField } from './payments-settings';

/** Only whether each secret is set, never a character of it. */
const facts = (view: PaymentsSettingsView) => ({
  key: view.secretKey.set ? 'set' : 'not set',
  signing: view.webhookSecret.set ? 'set' : 'not set',
  priceIds: view.priceIds,
  promotionCodes: view.promotionCodes,
  trialDays: view.trialDays,
  trialWithoutCard: view.trialWithoutCard,
});

const FIELD_WORDS: Record<SavedField, string> = {
  secretKey: 'secret key',
  webhookSecret: 'webhook signing secret',
  priceIds: 'prices',
  promotionCodes: 'promotion codes',
  trialDays: 'free trial',
  trialWithoutCard: 'trial without a card',
};

/** /api/admin/payments: the console's Payments section and the Dashboard's money card. */
export function paymentsAdminRoutes(
  settings: PaymentsSettings,
  service: PaymentsService,
  sales: CourseSales,
  ctx: Pick<AppContext, 'activity' | 'reauth'>,
) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: PaymentsSettingsResponse }>('/settings', async () => ({
      success: true,
      data: await settings.view(),
    }));

    // The key moves money and the signing secret decides who is paid: the password is asked again.
    app.post<{ Reply: PaymentsSettingsResponse }>(
      '/settings',
      { preHandler: ctx.reauth.guard },
      async (request) => {
        const body = parseInput(paymentsSettingsBody, request.body);
        const before = await settings.view();
        const { view, changed } = await settings.save(body);
        await ctx.activity.record(request, {
          kind: 'payments.saved',
          summary: changed.length
            ? `Saved the payment settings: ${changed.map((field) => FIELD_WORDS[field]).join(', ')}`
            : 'Saved the payment settings (no change)',
          before: facts(before),
          after: facts(view),
        });
        return { success: true, data: view };
      },
    );

    app.get<{ Reply: PriceListResponse }>('/prices', async () => ({
      success: true,
      data: await settings.prices(),
    }));

    app.put<{ Params: { courseId: string }; Reply: PaymentsSettingsResponse }>(
      '/course-prices/:courseId',
      async (request) => {
        const { priceId } = parseInput(coursePriceBody, request.body);
        return {
          success: true,
          data: await sales.setPrice(String(request.params.courseId), priceId, request),
        };
      },
    );

    app.post<{ Reply: PaymentsTestResponse }>('/test', async (request) => {
      const result = await settings.test(parseInput(paymentsTestBody, request.body));
      return { success: true, data: result };
    });

    app.get<{ Reply: PaymentsOverviewResponse }>('/overview', async () => ({
      success: true,
      data: await service.overview(),
    }));
  };
}
