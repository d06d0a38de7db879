import type { FastifyBaseLogger } from 'fastify';
import { accessClockStart } from '../courses/access/access-rules';
import type { CoursesRepository } from '../courses/courses.repository';
import type {
  ProgressForgotten,
  ProgressRepository,
  ProgressStep,
  ProgressWatcher,
} from '../courses/progress/progress.repository';
import type { UsersRepository } from '../users/users.repository';
import type { FigureDaysRepository } from './figure-days.repository';
import { dayOf } from './member-events';

type Counts = Record<string, number>;

/**
 * The counters of a course's roll-up (one document per course in `course_figures`): members who
 * started it by the day their drip clock started (`started@YYYY-MM-DD`, so each lesson's "could
 * reach" is worked out from the drip alone), and per lesson those who first reached it
 * (`reached:<lesson id>`: completed or played) and completed it (`completed:<lesson id>`).
 */
export const STARTED_PREFIX = 'started@';
export const startedCounter = (clock: Date) => `${STARTED_PREFIX}${dayOf(clock)}`;
export const reachedCounter = (lessonId: string) => `reached:${lessonId}`;
export const completedCounter = (lessonId: string) => `completed:${lessonId}`;

/** What one progress step adds to its course's roll-up. */
export function countersOfStep(step: ProgressStep): Counts {
  const add: Counts = {};
  if (step.started) add[startedCounter(step.clock)] = 1;
  if (step.reached) add[reachedCounter(step.reached)] = 1;
  if (step.completed) add[completedCounter(step.completed)] = 1;
  return add;
}

/**
 * Keeps each course's roll-up as members write progress (registered on the progress repository
 * as its watcher): one compare-and-set per course document, merged and retried as the day
 * roll-ups are (figure-days.repository.ts), so every worker and instance adds correctly. A failed
 * write is reported and never fails the member's progress.
 */
export class CourseRollUps implements ProgressWatcher {
  constructor(
    private readonly rollUps: FigureDaysRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  async stepped(step: ProgressStep): Promise<void> {
    try {
      await this.rollUps.add(step.courseId, countersOfStep(step));
    } catch (error) {
      this.log.error({ err: error }, 'Could not count a progress step in the course figures');
    }
  }

  /** A deleted member's start, reached and completed lessons come off the course's counters. */
  async forgot(gone: ProgressForgotten): Promise<void> {
    const off: Counts = { [startedCounter(gone.clock)]: -1 };
    for (const lessonId of gone.reached) off[reachedCounter(lessonId)] = -1;
    for (const lessonId of gone.completed) off[completedCounter(lessonId)] = -1;
    try {
      await this.rollUps.add(gone.courseId, off);
    } catch (error) {
      this.log.error({ err: error }, 'Could not take a deleted member off the course figures');
    }
  }

  /** A course's counters (none before its first member started it). */
  async of(courseId: string): Promise<Counts> {
    return (await this.rollUps.one(courseId))?.counts ?? {};
  }
}

/**
 * Fills empty course roll-ups once from the progress already there (a site that ran before these
 * figures): each member's start on their drip clock's day, each lesson they reached or completed.
 * Administrators' progress is never counted. One process does it: the first to write the mark.
 */
export async function backfillCourses(
  rollUps: FigureDaysRepository,
  sources: { progress: ProgressRepository; courses: CoursesRepository; users: UsersRepository },
): Promise<boolean> {
  if (!(await rollUps.isEmpty()) || !(await rollUps.claimBackfill())) return false;
  const access = new Map((await sources.courses.allCourses()).map((course) => [course._id, course.access]));
  const byCourse = new Map<string, Counts>();
  for await (const batch of sources.progress.everyInBatches()) {
    const users = await sources.users.find({ _id: { $in: [...new Set(batch.map((doc) => doc.userId))] } });
    const byId = new Map(users.map((user) => [user._id, user]));
    for (const doc of batch) {
      const user = byId.get(doc.userId);
      const kind = access.get(doc.courseId);
      if (user?.role !== 'user' || !kind) continue;
      const into = byCourse.get(doc.courseId) ?? {};
      const plus = (name: string) => {
        into[name] = (into[name] ?? 0) + 1;
      };
      plus(startedCounter(accessClockStart(user, kind)));
      for (const lessonId of new Set([...doc.completed, ...Object.keys(doc.positions)]))
        plus(reachedCounter(lessonId));
      for (const lessonId of new Set(doc.completed)) plus(completedCounter(lessonId));
      byCourse.set(doc.courseId, into);
    }
  }
  for (const [courseId, counts] of byCourse) await rollUps.add(courseId, counts);
  return true;
}
