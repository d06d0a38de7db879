import type { HealthResponse } from '@common/schemas/health';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export function healthRoutes(ctx: Pick<AppContext, 'store'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: HealthResponse }>('/health', async () => ({
      success: true,
      status: 'ok',
      store: ctx.store.kind,
      uptimeSeconds: Math.round(process.uptime()),
    }));
  };
}
