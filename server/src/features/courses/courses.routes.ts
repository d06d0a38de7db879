import type {
  CompleteResult,
  CourseCard,
  CourseDetail,
  LessonView,
  MemberHome,
  PositionResult,
} from '@common/schemas/course-views';
import { positionBody, previewQuery } from '@common/schemas/courses';
import type { DataAnswer } from '@common/schemas/envelopes';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import { viewerOf } from './access/access-rules';
import { type CoursesService, NO_SUCH_LESSON } from './courses.service';
import { browserCookieHeader, type FileLinks } from './lesson-files/file-links';
import { POSITION_BODY_LIMIT, positionSaveLimit } from './progress/position-save-limit';
import type { ProgressService } from './progress/progress.service';
import { viewerContextOf } from './viewer-context';

type Params = { slug?: string; lessonId?: string };

const ID = /^[0-9a-f]{24}$/;

function lessonIdOf(params: Params): string {
  if (!params.lessonId || !ID.test(params.lessonId)) throw new AppError('NOT_FOUND', NO_SUCH_LESSON);
  return params.lessonId;
}

/**
 * What visitors and members read and write (`/api/courses`). Anyone may read the catalogue, a
 * published course's outline and its open lessons; what each answer holds follows from who asks
 * (see access/access-rules.ts). Progress needs a signed-in member.
 */
export function coursesRoutes(
  courses: CoursesService,
  progress: ProgressService,
  links: FileLinks,
  ctx: Pick<AppContext, 'guards' | 'store'>,
) {
  const limitPositionSaves = positionSaveLimit(ctx.store.counters);
  return async (app: FastifyInstance) => {
    app.get<{ Reply: DataAnswer<CourseCard[]> }>('/', async (request, reply) => {
      const who = await viewerContextOf(request, reply, ctx);
      return { success: true, data: await courses.cards(who) };
    });

    app.get<{ Reply: DataAnswer<MemberHome> }>(
      '/home',
      { onRequest: ctx.guards.requireUser },
      async (request, reply) => {
        const who = await viewerContextOf(request, reply, ctx);
        const tier = request.user!.membershipTier;
        return { success: true, data: await courses.home(who, tier) };
      },
    );

    app.get<{ Params: Params; Reply: DataAnswer<CourseDetail> }>('/:slug', async (request, reply) => {
      const { as } = parseInput(previewQuery, request.query);
      const who = await viewerContextOf(request, reply, ctx, as);
      const data = await courses.course(String(request.params.slug).toLowerCase(), who);
      return { success: true, data };
    });

    app.get<{ Params: Params; Reply: DataAnswer<LessonView> }>(
      '/:slug/lessons/:lessonId',
      async (request, reply) => {
        const { as } = parseInput(previewQuery, request.query);
        const who = await viewerContextOf(request, reply, ctx, as);
        const data = await courses.lesson(
          String(request.params.slug).toLowerCase(),
          lessonIdOf(request.params),
          who,
        );
        // The member's links work only in this browser: the cookie the <video> sends with them.
        if (who.session.sessionId)
          reply.header(
            'Set-Cookie',
            browserCookieHeader(links.browserKey(who.session.sessionId), request.protocol === 'https'),
          );
        return { success: true, data };
      },
    );

    app.post<{ Params: Params; Reply: DataAnswer<CompleteResult> }>(
      '/lessons/:lessonId/complete',
      { onRequest: ctx.guards.requireUser },
      async (request) => {
        const data = await progress.complete(lessonIdOf(request.params), viewerOf(request.user!));
        return { success: true, data };
      },
    );

    // Sent every ~10 s while a lesson plays, on pause and when the page goes away (fetch keepalive).
    // Outside the general API limit, so it has its own per member, and a body of two numbers.
    app.post<{ Params: Params; Reply: DataAnswer<PositionResult> }>(
      '/lessons/:lessonId/position',
      {
        config: { ownRateLimit: true },
        onRequest: [ctx.guards.requireUser, limitPositionSaves],
        bodyLimit: POSITION_BODY_LIMIT,
      },
      async (request) => {
        const { seconds, duration } = parseInput(positionBody, request.body);
        const data = await progress.savePosition(
          lessonIdOf(request.params),
          viewerOf(request.user!),
          seconds,
          duration,
        );
        return { success: true, data };
      },
    );
  };
}
