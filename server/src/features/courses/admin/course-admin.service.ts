// The console's courses and their outline. Seams, in order: courses (list, create, update,
// remove), sections (add, update, remove), the outline's order, the Courses settings and the
// course as the editor sees it (view). Lessons are LessonAdminService's.
import type { AdminCourse, AdminCourseRow, AdminSection } from '@common/schemas/course-views';
import type {
  CoursesSettingsBody,
  CourseUpdateBody,
  OutlineOrderBody,
  SectionUpdateBody,
} from '@common/schemas/courses';
import { AppError } from '../../../lib/app-error';
import { DuplicateKeyError } from '../../../store/store';
import { courseHead, lessonKind } from '../course-views';
import type { CourseDoc, CoursesRepository, LessonDoc, SectionDoc } from '../courses.repository';
import type { CoursePictures } from '../pictures/course-pictures';
import type { ProgressRepository } from '../progress/progress.repository';
import type { LessonAdminService } from './lesson-admin.service';
import { freeSlug, RESERVED_SLUGS, slugFromTitle } from './slug';

export const NO_SUCH_COURSE_ID = 'No such course.';
const NO_SUCH_SECTION = 'No such section in this course.';

/**
 * The owner's side of courses: the list with its numbers, a course's settings, its sections and
 * their order. Lessons and their files are LessonAdminService's. Every method answers the
 * course as the editor shows it, so the console never asks again after a change.
 */
export class CourseAdminService {
  constructor(
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly lessons: LessonAdminService,
    private readonly log: { error(object: unknown, message: string): void },
    private readonly pictures: CoursePictures,
  ) {}

  /** Every course with its kept numbers: one read of the courses, one of their counts. */
  async list(): Promise<AdminCourseRow[]> {
    const courses = await this.courses.allCourses();
    const counts = await this.progress.countsOf(courses.map((c) => c._id));
    return courses.map((course) => {
      const kept = counts.get(course._id);
      const started = kept?.started ?? 0;
      const completed = kept?.completed ?? 0;
      return {
        id: course._id,
        slug: course.slug,
        title: course.title,
        access: course.access,
        published: course.published,
        lessonCount: course.lessonCount,
        started,
        completed,
        completionRate: started > 0 ? Math.min(1, completed / started) : null,
        updatedAt: course.updatedAt.toISOString(),
      };
    });
  }

  async create(title: string): Promise<AdminCourse> {
    const last = (await this.courses.allCourses()).at(-1);
    for (let attempt = 0; ; attempt++) {
      const slug = await freeSlug(slugFromTitle(title), async (s) =>
        Boolean(await this.courses.findCourseBySlug(s)),
      );
      try {
        const course = await this.courses.insertCourse({
          title,
          slug,
          summary: '',
          coverUrl: null,
          access: 'members',
          published: false,
          position: (last?.position ?? 0) + 1,
          lessonCount: 0,
          totalMinutes: 0,
        });
        return this.view(course);
      } catch (error) {
        // Another course took the address between the check and the write: try the next one.
        if (!(error instanceof DuplicateKeyError) || attempt > 3) throw error;
      }
    }
  }

  async course(id: string): Promise<CourseDoc> {
    const course = await this.courses.findCourse(id);
    if (!course) throw new AppError('NOT_FOUND', NO_SUCH_COURSE_ID);
    return course;
  }

  async get(id: string): Promise<AdminCourse> {
    return this.view(await this.course(id));
  }

  async update(id: string, body: CourseUpdateBody): Promise<{ before: CourseDoc; after: AdminCourse }> {
    const before = await this.course(id);
    if (body.slug !== undefined && RESERVED_SLUGS.has(body.slug))
      throw new AppError(
        'VALIDATION',
        `The address /courses/${body.slug} is kept for the site itself; choose another.`,
      );
    const taken =
      body.slug && body.slug !== before.slug ? await this.courses.findCourseBySlug(body.slug) : null;
    if (taken)
      throw new AppError('CONFLICT', `Another course already has the address /courses/${body.slug}.`);
    try {
      // A cover picked from the library becomes the course's own copy.
      const coverUrl = body.coverUrl ? await this.pictures.adopt(id, body.coverUrl) : body.coverUrl;
      const updated = await this.courses.updateCourse(
        id,
        coverUrl === undefined ? body : { ...body, coverUrl },
      );
      if (!updated) throw new AppError('NOT_FOUND', NO_SUCH_COURSE_ID);
      return { before, after: await this.view(updated) };
    } catch (error) {
      if (error instanceof DuplicateKeyError)
        throw new AppError('CONFLICT', `Another course already has the address /courses/${body.slug}.`);
      throw error;
    }
  }

  /** Removes the course, its sections, lessons, texts and files; its progress goes in the background. */
  async remove(id: string): Promise<CourseDoc> {
    const course = await this.course(id);
    for (const lesson of await this.courses.lessonsOf(id)) await this.lessons.removeLessonAndFiles(lesson);
    for (const section of await this.courses.sectionsOf(id)) await this.courses.deleteSection(section._id);
    await this.courses.deleteCourse(id);
    await this.pictures.removeCourse(id);
    void this.progress
      .forgetCourse(id)
      .catch((error: unknown) =>
        this.log.error({ err: error, courseId: id }, 'Could not remove a deleted course’s progress'),
      );
    return course;
  }

  async addSection(courseId: string, title: string): Promise<AdminCourse> {
    const course = await this.course(courseId);
    const last = (await this.courses.sectionsOf(courseId)).at(-1);
    await this.courses.insertSection({
      courseId,
      title,
      position: (last?.position ?? 0) + 1,
      drip: { kind: 'none' },
    });
    return this.view(course);
  }

  async section(courseId: string, sectionId: string): Promise<SectionDoc> {
    const section = await this.courses.findSection(sectionId);
    if (!section || section.courseId !== courseId) throw new AppError('NOT_FOUND', NO_SUCH_SECTION);
    return section;
  }

  async updateSection(
    courseId: string,
    sectionId: string,
    body: SectionUpdateBody,
  ): Promise<{ before: SectionDoc; after: AdminCourse }> {
    const before = await this.section(courseId, sectionId);
    await this.courses.updateSection(sectionId, body);
    return { before, after: await this.view(await this.course(courseId)) };
  }

  /** A section goes with its lessons (the console asks first). */
  async removeSection(
    courseId: string,
    sectionId: string,
  ): Promise<{ section: SectionDoc; after: AdminCourse }> {
    const section = await this.section(courseId, sectionId);
    for (const lesson of await this.courses.lessonsOf(courseId))
      if (lesson.sectionId === sectionId) await this.lessons.removeLessonAndFiles(lesson);
    await this.courses.deleteSection(sectionId);
    await this.lessons.refreshTotals(courseId);
    return { section, after: await this.view(await this.course(courseId)) };
  }

  /**
   * Puts sections and lessons in the given order (a lesson may move to another section). The
   * order must name every section and every lesson of the course exactly once: an editor that
   * missed someone else's addition is told to reload rather than lose it.
   */
  async reorder(courseId: string, body: OutlineOrderBody): Promise<AdminCourse> {
    const course = await this.course(courseId);
    const [sections, lessons] = await Promise.all([
      this.courses.sectionsOf(courseId),
      this.courses.lessonsOf(courseId),
    ]);
    const sectionIds = body.sections.map((s) => s.id);
    const lessonIds = body.sections.flatMap((s) => s.lessonIds);
    const same = (given: string[], known: Array<{ _id: string }>) =>
      given.length === known.length &&
      new Set(given).size === given.length &&
      known.every((k) => given.includes(k._id));
    if (!same(sectionIds, sections) || !same(lessonIds, lessons))
      throw new AppError(
        'CONFLICT',
        'The course changed meanwhile (another tab or person). Reload it, then order it again.',
      );
    const byId = new Map<string, SectionDoc | LessonDoc>([...sections, ...lessons].map((d) => [d._id, d]));
    for (const [i, entry] of body.sections.entries()) {
      const section = byId.get(entry.id) as SectionDoc;
      if (section.position !== i + 1) await this.courses.updateSection(entry.id, { position: i + 1 });
      for (const [j, lessonId] of entry.lessonIds.entries()) {
        const lesson = byId.get(lessonId) as LessonDoc;
        if (lesson.position !== j + 1 || lesson.sectionId !== entry.id)
          await this.courses.updateLesson(lessonId, { position: j + 1, sectionId: entry.id });
      }
    }
    return this.view(course);
  }

  async settings(): Promise<CoursesSettingsBody> {
    const saved = await this.courses.readSettings();
    return {
      upgradeText: saved?.upgradeText ?? '',
      upgradeLinkLabel: saved?.upgradeLinkLabel ?? '',
      upgradeLinkUrl: saved?.upgradeLinkUrl ?? '',
    };
  }

  async saveSettings(
    body: CoursesSettingsBody,
  ): Promise<{ before: CoursesSettingsBody; after: CoursesSettingsBody }> {
    const before = await this.settings();
    await this.courses.saveSettings(body);
    return { before, after: body };
  }

  /** The course as the editor shows it: settings, sections and lesson summaries, in order. */
  async view(course: CourseDoc): Promise<AdminCourse> {
    const [sections, lessons] = await Promise.all([
      this.courses.sectionsOf(course._id),
      this.courses.lessonsOf(course._id),
    ]);
    const outline: AdminSection[] = sections.map((section) => ({
      id: section._id,
      title: section.title,
      drip: section.drip,
      lessons: lessons
        .filter((lesson) => lesson.sectionId === section._id)
        .map((lesson) => ({
          id: lesson._id,
          title: lesson.title,
          kind: lessonKind(lesson),
          freePreview: lesson.freePreview,
          durationMinutes: lesson.durationMinutes,
          downloads: lesson.downloads.length,
        })),
    }));
    return {
      ...courseHead(course),
      published: course.published,
      sections: outline,
      updatedAt: course.updatedAt.toISOString(),
    };
  }
}
