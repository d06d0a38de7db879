import type { NoContent } from '@common/schemas/envelopes';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import type { VisitCounter } from './visit-counter';

/** A page's address and no more: anything longer is refused before it is read. */
export const VISIT_BODY_LIMIT = 512;

/**
 * POST /api/visits: the beacon's page view (its body is the page's path, as text). Answers 204
 * at once whether or not it was counted; the write happens later, gathered with others.
 */
export function visitsRoutes(counter: VisitCounter, ctx: Pick<AppContext, 'log'>) {
  return async (app: FastifyInstance) => {
    app.post<{ Reply: NoContent }>(
      '/visits',
      { bodyLimit: VISIT_BODY_LIMIT, config: { publicBodyLimit: VISIT_BODY_LIMIT } },
      async (request, reply) => {
        const counted = counter.take({
          path: typeof request.body === 'string' ? request.body.trim() : '',
          address: request.ip,
          userAgent: request.headers['user-agent'],
          optedOut: request.headers.dnt === '1' || request.headers['sec-gpc'] === '1',
        });
        ctx.log.trace({ counted }, 'Page view');
        return reply.code(204).send();
      },
    );
  };
}
