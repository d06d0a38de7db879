import type { CourseFigures, CourseFiguresRow, LessonFigures } from '@common/schemas/figures';
import { AppError } from '../../lib/app-error';
import { csvHeader, csvRow } from '../../lib/csv';
import { viewerOf } from '../courses/access/access-rules';
import { placeLessons, treeOf } from '../courses/course-views';
import type { CourseFiguresSource } from '../courses/courses.feature';
import type { CourseDoc } from '../courses/courses.repository';
import { NO_SUCH_COURSE } from '../courses/courses.service';
import type { ProgressDoc } from '../courses/progress/progress.repository';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { MembersNow } from './members-figures';

/** How long a course's lesson-by-lesson figures are kept once worked out. */
const DETAIL_KEPT_MS = 60_000;

/** A member's progress in the course, with the member (administrators' own progress left out). */
interface Learner {
  user: UserDoc;
  progress: ProgressDoc;
}

/**
 * The owner's course figures. Started and completed are the counts the courses keep as members
 * write progress; the lesson-by-lesson figures and the CSV read the course's progress a batch at
 * a time with its members, and a lesson a member's drip has not opened yet is not theirs to reach.
 */
export class CourseFiguresService {
  private readonly kept = new Map<string, { figures: CourseFigures; until: number }>();

  constructor(
    private readonly source: CourseFiguresSource,
    private readonly users: UsersRepository,
    private readonly membersNow: () => Promise<MembersNow>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<CourseFiguresRow[]> {
    const courses = await this.source.courses.allCourses();
    const [counts, members] = await Promise.all([
      this.source.progress.countsOf(courses.map((course) => course._id)),
      this.membersNow(),
    ]);
    return courses.map((course) => ({
      courseId: course._id,
      title: course.title,
      access: course.access,
      enrolled: course.access === 'paid' ? members.paid : members.total,
      started: counts.get(course._id)?.started ?? 0,
      completed: counts.get(course._id)?.completed ?? 0,
    }));
  }

  /**
   * A course's lesson-by-lesson figures, read from its progress (a scan of the course's rows)
   * and kept DETAIL_KEPT_MS, so an owner going back and forth never waits twice.
   */
  async detail(courseId: string): Promise<CourseFigures> {
    const kept = this.kept.get(courseId);
    if (kept && kept.until > Date.now()) return kept.figures;
    const figures = await this.work(courseId);
    if (this.kept.size > 50) this.kept.clear();
    this.kept.set(courseId, { figures, until: Date.now() + DETAIL_KEPT_MS });
    return figures;
  }

  private async work(courseId: string): Promise<CourseFigures> {
    const course = await this.course(courseId);
    const row = (await this.list()).find((candidate) => candidate.courseId === courseId)!;
    const tree = treeOf(
      course,
      await this.source.courses.sectionsOf(courseId),
      await this.source.courses.lessonsOf(courseId),
    );
    const lessons: LessonFigures[] = tree.lessons.map((lesson) => ({
      lessonId: lesson._id,
      title: lesson.title,
      kind: lesson.media?.kind ?? 'text',
      open: 0,
      reached: 0,
      played: lesson.media ? 0 : null,
      watchedThrough: lesson.media ? 0 : null,
    }));
    const now = this.now();
    for await (const batch of this.learners(courseId)) {
      for (const { user, progress } of batch) {
        const done = new Set(progress.completed);
        placeLessons(tree, viewerOf(user), now).forEach(({ lesson, lock }, index) => {
          const figures = lessons[index]!;
          const completed = done.has(lesson._id);
          const played = progress.positions[lesson._id] !== undefined || completed;
          // A lesson reached before the member's access changed counts; a closed one not reached does not.
          if (lock && !completed && !played) return;
          figures.open += 1;
          if (completed || played) figures.reached += 1;
          if (figures.played !== null && played) figures.played += 1;
          if (figures.watchedThrough !== null && completed) figures.watchedThrough += 1;
        });
      }
    }
    return { ...row, lessons };
  }

  /** One course's members with their progress, as CSV lines (the header first). */
  async *csv(courseId: string): AsyncIterable<string> {
    const course = await this.course(courseId);
    const total = (await this.source.courses.lessonsOf(courseId)).length;
    yield csvHeader([
      'Name',
      'Email',
      'Tier',
      'Started',
      'Last opened',
      'Lessons completed',
      'Lessons',
      'Completed',
    ]);
    for await (const batch of this.learners(course._id)) {
      yield batch
        .map(({ user, progress }) =>
          csvRow([
            user.name,
            user.email,
            user.membershipTier,
            progress.createdAt.toISOString(),
            progress.lastAt.toISOString(),
            String(progress.completed.length),
            String(total),
            progress.completedAt?.toISOString() ?? '',
          ]),
        )
        .join('');
    }
  }

  private async course(courseId: string): Promise<CourseDoc> {
    const course = /^[0-9a-f]{24}$/.test(courseId) ? await this.source.courses.findCourse(courseId) : null;
    if (!course) throw new AppError('NOT_FOUND', NO_SUCH_COURSE);
    return course;
  }

  private async *learners(courseId: string): AsyncIterable<Learner[]> {
    for await (const batch of this.source.progress.ofCourse(courseId)) {
      const users = await this.users.find({ _id: { $in: batch.map((doc) => doc.userId) } });
      const byId = new Map(users.map((user) => [user._id, user]));
      yield batch.flatMap((progress) => {
        const user = byId.get(progress.userId);
        return user && user.role === 'user' ? [{ user, progress }] : [];
      });
    }
  }
}
