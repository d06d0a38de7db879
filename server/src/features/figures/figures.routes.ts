import { Readable } from 'node:stream';
import type { TextFile } from '@common/schemas/envelopes';
import {
  type CourseFiguresListResponse,
  type CourseFiguresResponse,
  figuresQuery,
  type MembersFiguresResponse,
  type MoneyFiguresResponse,
  type SourceFiguresResponse,
  type VisitFiguresResponse,
} from '@common/schemas/figures';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { CourseFiguresService } from './course-figures';
import type { FiguresService } from './figures.service';

/** Every figure should answer within this; a slower one is reported (docs/figures.md, "How fast"). */
const SLOW_MS = 100;

/** /api/admin/figures: the owner's figures over a period (inside the administrators' scope). */
export function figuresRoutes(
  figures: FiguresService,
  courses: CourseFiguresService,
  ctx: Pick<AppContext, 'log'>,
) {
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

    app.get<{ Reply: SourceFiguresResponse }>('/sources', async (request) => {
      const query = parseInput(figuresQuery, request.query);
      return { success: true, data: await timed('sources', () => figures.sources(query)) };
    });

    app.get<{ Reply: VisitFiguresResponse }>('/visits', async (request) => {
      const query = parseInput(figuresQuery, request.query);
      return { success: true, data: await timed('visits', () => figures.visits(query)) };
    });

    app.get<{ Reply: CourseFiguresListResponse }>('/courses', async () => ({
      success: true,
      data: await timed('courses', () => courses.list()),
    }));

    app.get<{ Params: { id: string }; Reply: CourseFiguresResponse }>('/courses/:id', async (request) => ({
      success: true,
      data: await timed('course', () => courses.detail(request.params.id)),
    }));

    app.get<{ Params: { id: string }; Reply: TextFile }>(
      '/courses/:id/members.csv',
      async (request, reply) => {
        const lines = courses.csv(request.params.id);
        // The first line is read before answering, so an unknown course is a 404, not an empty file.
        const iterator = lines[Symbol.asyncIterator]();
        const first = await iterator.next();
        const rest = { [Symbol.asyncIterator]: () => iterator };
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="course-${request.params.id}-members.csv"`)
          .header('cache-control', 'no-store')
          .send(
            Readable.from(
              (async function* () {
                if (!first.done) yield first.value;
                yield* rest;
              })(),
            ),
          );
      },
    );
  };
}
