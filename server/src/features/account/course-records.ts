import type { ExportedCourseProgress, ExportedLesson } from '@common/schemas/account';
import type { Store } from '../../store/store';
import { accessClockStart } from '../courses/access/access-rules';
import { CoursesRepository, type LessonDoc } from '../courses/courses.repository';
import type { ProgressRepository } from '../courses/progress/progress.repository';
import type { UserDoc } from '../users/users.repository';

/**
 * A member's records in the courses feature, as their account sees them: given in "Download my
 * data", and forgotten with the account. Through the courses feature's own repositories.
 */
export class CourseRecords {
  private readonly courses: CoursesRepository;

  /** `progress` is the courses feature's own, so that the owner's figures hear of a deletion. */
  constructor(
    store: Store,
    private readonly progress: ProgressRepository,
  ) {
    this.courses = new CoursesRepository(store);
  }

  /** The member's progress in every course they started, each lesson named by its title now. */
  async exportOf(userId: string): Promise<ExportedCourseProgress[]> {
    const docs = await this.progress.ofMember(userId);
    return Promise.all(
      docs.map(async (doc) => {
        const [course, lessons] = await Promise.all([
          this.courses.findCourse(doc.courseId),
          this.courses.lessonsOf(doc.courseId),
        ]);
        const titles = new Map(lessons.map((lesson: LessonDoc) => [lesson._id, lesson.title]));
        const named = (id: string): ExportedLesson => ({ id, title: titles.get(id) ?? null });
        return {
          courseId: doc.courseId,
          title: course?.title ?? null,
          slug: course?.slug ?? null,
          completedLessons: doc.completed.map(named),
          positions: Object.entries(doc.positions).map(([id, seconds]) => ({ ...named(id), seconds })),
          lastLesson: doc.lastLessonId ? named(doc.lastLessonId) : null,
          lastAt: doc.lastAt.toISOString(),
          completedAt: doc.completedAt?.toISOString() ?? null,
        };
      }),
    );
  }

  /**
   * Removes the member's progress and takes them off each course's started and completed numbers.
   * Members' progress is counted as it is written, an administrator's never (progress.service.ts),
   * so the role the person has now says whether it was: someone promoted or demoted after
   * starting a course is the one case these numbers can be one off. The figures take the member
   * off each lesson's counts with their drip clock in the course as it is now (the clock their
   * start was counted on, unless they became paid again since).
   */
  async forget(user: Pick<UserDoc, '_id' | 'role' | 'createdAt' | 'paidSince'>): Promise<void> {
    await this.progress.forgetMember(user._id, {
      counted: user.role !== 'admin',
      clockOf: async (courseId) => {
        const course = await this.courses.findCourse(courseId);
        return course ? accessClockStart(user, course.access) : user.createdAt;
      },
    });
  }
}
