import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import type { CourseFiguresSource } from '../courses/courses.feature';
import { backfill } from './backfill';
import { CourseFiguresService } from './course-figures';
import { backfillCourses, CourseRollUps } from './course-roll-ups';
import { FigureDaysRepository } from './figure-days.repository';
import { figuresRoutes } from './figures.routes';
import { FiguresService, type PricesPort } from './figures.service';
import { MemberEvents } from './member-events';
import { VisitCounter } from './visit-counter';
import { VisitsRepository } from './visits.repository';
import { visitsRoutes } from './visits.routes';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Below this many accounts the first backfill is awaited at start; above, it runs behind. */
const BACKFILL_AWAITED_UP_TO = 10_000;

/** What the figures read of payments: the prices, and whether payments are live (not test mode). */
export interface FiguresPayments extends PricesPort {
  mode(): Promise<'live' | 'test' | null>;
}

/**
 * The owner's figures (`/api/admin/figures`): daily roll-ups kept as members change (the user
 * record's watcher), filled once from the members already there, read per period.
 */
export async function createFiguresFeature(
  ctx: Pick<AppContext, 'store' | 'users' | 'activity' | 'log'>,
  needs: { payments: FiguresPayments; courses: CourseFiguresSource },
): Promise<Feature> {
  const days = new FigureDaysRepository(ctx.store);
  const live = async () => (await needs.payments.mode()) === 'live';
  ctx.users.watch(new MemberEvents(days, live, ctx.log));
  const filling = (async () => backfill(days, ctx.users, ctx.activity, await live()))().catch(
    (error: unknown) =>
      ctx.log.error({ err: error }, 'Could not fill the figures from the members already there'),
  );
  if ((await ctx.users.count({}, { limit: BACKFILL_AWAITED_UP_TO })) < BACKFILL_AWAITED_UP_TO) await filling;
  const visits = new VisitsRepository(ctx.store);
  await visits.init();
  const visitDays = new FigureDaysRepository(ctx.store, 'visit_days');
  const counter = new VisitCounter(visitDays, visits, ctx.log);
  const forget = () =>
    counter
      .forgetOld()
      .catch((error: unknown) => ctx.log.error({ err: error }, 'Could not drop old visit salts'));
  await forget();
  const timer = setInterval(forget, DAY_MS / 24);
  timer.unref();
  const figures = new FiguresService({ members: days, visits: visitDays }, ctx.users, needs.payments);
  const courseRollUps = new FigureDaysRepository(ctx.store, 'course_figures');
  const progressSteps = new CourseRollUps(courseRollUps, ctx.log);
  needs.courses.progress.watch(progressSteps);
  const fillingCourses = backfillCourses(courseRollUps, { ...needs.courses, users: ctx.users }).catch(
    (error: unknown) =>
      ctx.log.error({ err: error }, 'Could not fill the course figures from the progress there'),
  );
  if ((await ctx.users.count({}, { limit: BACKFILL_AWAITED_UP_TO })) < BACKFILL_AWAITED_UP_TO)
    await fillingCourses;
  const courses = new CourseFiguresService(needs.courses, ctx.users, progressSteps, () =>
    figures.membersNow(),
  );
  return {
    name: 'figures',
    routes: [{ prefix: '/api', plugin: visitsRoutes(counter, ctx) }],
    adminRoutes: [{ prefix: '/figures', plugin: figuresRoutes(figures, courses, ctx) }],
    close: async () => {
      clearInterval(timer);
      await counter.flush();
    },
  };
}
