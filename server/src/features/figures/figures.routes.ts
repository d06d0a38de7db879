import {
  figuresQuery,
  type MembersFiguresResponse,
  type MoneyFiguresResponse,
} from '@common/schemas/figures';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { FiguresService } from './figures.service';

/** Every figure should answer within this; a slower one is reported (docs/figures.md, "How fast"). */
const SLOW_MS = 100;

/** /api/admin/figures: the owner's figures over a period (inside the administrators' scope). */
export function figuresRoutes(figures: FiguresService, ctx: Pick<AppContext, 'log'>) {
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const answer = await work();
    const took = performance.now() - started;
    if (took > SLOW_MS) ctx.log.warn({ figure: name, ms: Math.round(took) }, 'A figure answered slowly');
    return answer;
  };
  return async (app: FastifyInstance) => {
    app.get<{ Reply: MembersFiguresResponse }>('/members', async (request) => {
      const query = parseInput(figuresQuery, request.query);
      return { success: true, data: await timed('members', () => figures.members(query)) };
    });

    app.get<{ Reply: MoneyFiguresResponse }>('/money', async (request) => {
      const query = parseInput(figuresQuery, request.query);
      return { success: true, data: await timed('money', () => figures.money(query)) };
    });
  };
}
