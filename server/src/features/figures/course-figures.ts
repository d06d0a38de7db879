import type { CourseFigures, CourseFiguresRow, LessonFigures } from '@common/schemas/figures';
import { AppError } from '../../lib/app-error';
import { csvHeader, csvRow } from '../../lib/csv';
import { lessonLock, type Viewer } from '../courses/access/access-rules';
import { treeOf } from '../courses/course-views';
import type { CourseFiguresSource } from '../courses/courses.feature';
import type { CourseDoc, SectionDoc } from '../courses/courses.repository';
import { NO_SUCH_COURSE } from '../courses/courses.service';
import type { ProgressDoc } from '../courses/progress/progress.repository';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import { type CourseRollUps, completedCounter, reachedCounter, STARTED_PREFIX } from './course-roll-ups';
import type { MembersNow } from './members-figures';

/** A member who started the course, as far as its drip goes: their clock started on `day`. */
const starterOn = (day: string, courseId: string): Viewer => {
  const clock = new Date(`${day}T00:00:00.000Z`);
  return {
    kind: 'member',
    userId: null,
    tier: 'paid',
    joinedAt: clock,
    paidSince: clock,
    preview: null,
    bought: [courseId],
  };
};

/** A member's progress in the course, with the member (administrators' own progress left out). */
interface Learner {
  user: UserDoc;
  progress: ProgressDoc;
}

/**
 * The owner's course figures, read from roll-ups kept as members write progress: started and
 * completed are the counts the courses keep; lesson by lesson, each course's roll-up
 * (course-roll-ups.ts) holds who reached and completed each lesson, and who started by the day
 * their drip clock started, from which each lesson's "could reach" is worked out: a lesson a
 * member's drip has not opened yet is not theirs to reach. Only the CSV reads the progress rows.
 */
export class CourseFiguresService {
  constructor(
    private readonly source: CourseFiguresSource,
    private readonly users: UsersRepository,
    private readonly rollUps: CourseRollUps,
    private readonly membersNow: () => Promise<MembersNow>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<CourseFiguresRow[]> {
    const courses = await this.source.courses.allCourses();
    return this.rows(courses);
  }

  private async rows(courses: CourseDoc[]): Promise<CourseFiguresRow[]> {
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

  /** A course's lesson-by-lesson figures: one read of its roll-up, its sections and lessons. */
  async detail(courseId: string): Promise<CourseFigures> {
    const course = await this.course(courseId);
    const [[row], sections, lessonDocs, counts] = await Promise.all([
      this.rows([course]),
      this.source.courses.sectionsOf(courseId),
      this.source.courses.lessonsOf(courseId),
      this.rollUps.of(courseId),
    ]);
    const tree = treeOf(course, sections, lessonDocs);
    const starts = Object.entries(counts).flatMap(([name, count]) =>
      name.startsWith(STARTED_PREFIX) ? [[name.slice(STARTED_PREFIX.length), count] as const] : [],
    );
    const now = this.now();
    // Members whose drip opened a lesson: worked out once per section (and once for free previews).
    const openTo = new Map<string, number>();
    const opened = (key: string, drip: SectionDoc['drip'], freePreview: boolean) => {
      let sum = openTo.get(key);
      if (sum === undefined) {
        sum = 0;
        for (const [day, count] of starts)
          if (!lessonLock(starterOn(day, courseId), course, drip, { freePreview }, now)) sum += count;
        openTo.set(key, sum);
      }
      return sum;
    };
    const byId = new Map(tree.sections.map((section) => [section._id, section]));
    const lessons: LessonFigures[] = tree.lessons.map((lesson) => {
      const section = byId.get(lesson.sectionId)!;
      const reached = counts[reachedCounter(lesson._id)] ?? 0;
      const completed = counts[completedCounter(lesson._id)] ?? 0;
      const open = opened(lesson.freePreview ? 'preview' : section._id, section.drip, lesson.freePreview);
      return {
        lessonId: lesson._id,
        title: lesson.title,
        kind: lesson.media?.kind ?? 'text',
        // Who reached a lesson could reach it, even if the owner has since moved its drip later.
        open: Math.max(open, reached),
        reached,
        played: lesson.media ? reached : null,
        watchedThrough: lesson.media ? completed : null,
      };
    });
    return { ...row!, lessons };
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
