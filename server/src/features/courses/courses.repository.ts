// The store access of courses. Seams, in order: the courses, sections and lessons (with the
// lessons read in batches for the sitemap), the lesson texts, the Courses section's settings.
import { createHash } from 'node:crypto';
import type { CourseAccess, LessonMediaKind } from '@common/courses';
import type { Drip } from '@common/schemas/courses';
import {
  type Collection,
  type DocChanges,
  DuplicateKeyError,
  type Filter,
  type NewDoc,
  type Store,
  type StoredDoc,
} from '../../store/store';
import type { CoursePictureUse } from '../media/course-uses';
import { coursePictureUrls, libraryPictureUrls } from './markdown';

export interface CourseDoc extends StoredDoc {
  title: string;
  slug: string;
  summary: string;
  coverUrl: string | null;
  access: CourseAccess;
  published: boolean;
  /** Place in the catalogue (ascending). */
  position: number;
  /** Kept with every lesson added or removed, so that lists never count lessons. */
  lessonCount: number;
  totalMinutes: number;
  /** Made by `npm run seed -- --courses`; `--remove` takes these away. */
  demo?: true;
}

export interface SectionDoc extends StoredDoc {
  courseId: string;
  title: string;
  position: number;
  drip: Drip;
}

/** A file of a lesson as the lesson lists it (the file's own record is in lesson-files/). */
export interface LessonFileRef {
  id: string;
  name: string;
  size: number;
  mime: string;
}

export interface LessonDoc extends StoredDoc {
  courseId: string;
  sectionId: string;
  title: string;
  /** Place within its section (ascending). */
  position: number;
  freePreview: boolean;
  durationMinutes: number | null;
  media: (LessonFileRef & { kind: LessonMediaKind }) | null;
  downloads: LessonFileRef[];
  /** Goes up at every change of the file lists, which are changed by compare-and-set on it. */
  rev: number;
}

/** A lesson's text, apart from the lesson so that outlines never read it; `_id` is the lesson's. */
export interface LessonBodyDoc extends StoredDoc {
  markdown: string;
  /** Rendered and sanitised once, when saved. */
  html: string;
}

export interface CoursesSettingsDoc extends StoredDoc {
  upgradeText: string;
  upgradeLinkLabel: string;
  upgradeLinkUrl: string;
}

/** The Courses section's settings live in one document with an id made from its name. */
const SETTINGS_ID = createHash('sha256').update('courses:settings').digest('hex').slice(0, 24);

/** The only code that reads or writes courses, their sections, lessons and lesson texts. */
export class CoursesRepository {
  readonly courses: Collection<CourseDoc>;
  readonly sections: Collection<SectionDoc>;
  readonly lessons: Collection<LessonDoc>;
  private readonly bodies: Collection<LessonBodyDoc>;
  private readonly settings: Collection<CoursesSettingsDoc>;

  constructor(store: Store) {
    this.courses = store.collection<CourseDoc>('courses');
    this.sections = store.collection<SectionDoc>('course_sections');
    this.lessons = store.collection<LessonDoc>('course_lessons');
    this.bodies = store.collection<LessonBodyDoc>('course_lesson_bodies');
    this.settings = store.collection<CoursesSettingsDoc>('course_settings');
  }

  async init(): Promise<void> {
    await this.courses.ensureIndex({ field: 'slug', unique: true });
    await this.courses.ensureIndex({ field: 'published' });
    await this.sections.ensureIndex({ field: 'courseId' });
    await this.lessons.ensureIndex({ field: 'courseId' });
  }

  // Courses.

  findCourse(id: string): Promise<CourseDoc | null> {
    return this.courses.findById(id);
  }

  findCourseBySlug(slug: string): Promise<CourseDoc | null> {
    return this.courses.findOne({ slug });
  }

  async allCourses(): Promise<CourseDoc[]> {
    return sortByPosition(await this.courses.find({}));
  }

  async publishedCourses(): Promise<CourseDoc[]> {
    return sortByPosition(await this.courses.find({ published: true }));
  }

  /** Throws DuplicateKeyError when the slug is taken. */
  insertCourse(course: NewDoc<CourseDoc>): Promise<CourseDoc> {
    return this.courses.insertOne(course);
  }

  updateCourse(id: string, changes: DocChanges<CourseDoc>): Promise<CourseDoc | null> {
    return this.courses.updateById(id, changes);
  }

  deleteCourse(id: string): Promise<boolean> {
    return this.courses.deleteById(id);
  }

  // Sections and lessons.

  async sectionsOf(courseId: string): Promise<SectionDoc[]> {
    return sortByPosition(await this.sections.find({ courseId }));
  }

  findSection(id: string): Promise<SectionDoc | null> {
    return this.sections.findById(id);
  }

  insertSection(section: NewDoc<SectionDoc>): Promise<SectionDoc> {
    return this.sections.insertOne(section);
  }

  updateSection(id: string, changes: DocChanges<SectionDoc>): Promise<SectionDoc | null> {
    return this.sections.updateById(id, changes);
  }

  deleteSection(id: string): Promise<boolean> {
    return this.sections.deleteById(id);
  }

  async lessonsOf(courseId: string): Promise<LessonDoc[]> {
    return sortByPosition(await this.lessons.find({ courseId }));
  }

  /** How many of a course's lessons match `filter` (counted in the store, none read). */
  countLessons(courseId: string, filter: Filter = {}): Promise<number> {
    return this.lessons.count({ courseId, ...filter });
  }

  /**
   * A course's lessons matching `filter`, a batch at a time, in one stable order (by id), from the
   * `skip`-th on: the sitemap reads 100,000 of them and starts its later files part-way through.
   */
  async *lessonsInBatches(courseId: string, filter: Filter = {}, skip = 0): AsyncIterable<LessonDoc[]> {
    const where: Filter = { courseId, ...filter };
    const order = { sort: { _id: 1 as const } };
    if (skip > 0) {
      const [first] = await this.lessons.find(where, { ...order, skip, limit: 1 });
      if (!first) return;
      where._id = { $gte: first._id };
    }
    yield* this.lessons.findInBatches(where, { ...order, batchSize: 1000 });
  }

  findLesson(id: string): Promise<LessonDoc | null> {
    return this.lessons.findById(id);
  }

  insertLesson(lesson: NewDoc<LessonDoc>): Promise<LessonDoc> {
    return this.lessons.insertOne(lesson);
  }

  updateLesson(id: string, changes: DocChanges<LessonDoc>): Promise<LessonDoc | null> {
    return this.lessons.updateById(id, changes);
  }

  /** A compare-and-set on the lesson's `rev`: null when another change came first. */
  updateLessonIfUnchanged(lesson: LessonDoc, changes: DocChanges<LessonDoc>): Promise<LessonDoc | null> {
    return this.lessons.updateOne({ _id: lesson._id, rev: lesson.rev }, { ...changes, rev: lesson.rev + 1 });
  }

  async deleteLesson(id: string): Promise<boolean> {
    await this.bodies.deleteById(id);
    return this.lessons.deleteById(id);
  }

  // Lesson texts.

  findBody(lessonId: string): Promise<LessonBodyDoc | null> {
    return this.bodies.findById(lessonId);
  }

  async saveBody(lessonId: string, markdown: string, html: string): Promise<void> {
    if (await this.bodies.updateById(lessonId, { markdown, html })) return;
    try {
      await this.bodies.insertMany([{ _id: lessonId, markdown, html }]);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.bodies.updateById(lessonId, { markdown, html });
    }
  }

  // Pictures.

  /**
   * Every picture the courses show, as they name it: covers, and pictures in lesson texts (the
   * media library's `/media/image/…`, or the course's own `/course-pictures/…` copies).
   */
  async pictureUses(): Promise<CoursePictureUse[]> {
    const [courses, bodies] = await Promise.all([this.courses.find({}), this.bodies.find({})]);
    const uses: CoursePictureUse[] = [];
    const courseOf = new Map(courses.map((course) => [course._id, { id: course._id, title: course.title }]));
    for (const course of courses)
      if (course.coverUrl)
        uses.push({ url: course.coverUrl, course: courseOf.get(course._id)!, lesson: null });
    const showing = bodies
      .map((body) => ({
        lessonId: body._id,
        urls: [...libraryPictureUrls(body.html), ...coursePictureUrls(body.html)],
      }))
      .filter((body) => body.urls.length > 0);
    if (showing.length === 0) return uses;
    const lessons = await this.lessons.find({ _id: { $in: showing.map((body) => body.lessonId) } });
    const lessonOf = new Map(lessons.map((lesson) => [lesson._id, lesson]));
    for (const { lessonId, urls } of showing) {
      const lesson = lessonOf.get(lessonId);
      const course = lesson && courseOf.get(lesson.courseId);
      if (!lesson || !course) continue;
      for (const url of urls) uses.push({ url, course, lesson: { id: lesson._id, title: lesson.title } });
    }
    return uses;
  }

  /** Every lesson text, for the move of course pictures at start. */
  allBodies(): Promise<LessonBodyDoc[]> {
    return this.bodies.find({});
  }

  // Settings.

  async readSettings(): Promise<CoursesSettingsDoc | null> {
    return this.settings.findById(SETTINGS_ID);
  }

  async saveSettings(values: NewDoc<CoursesSettingsDoc>): Promise<void> {
    if (await this.settings.updateById(SETTINGS_ID, values)) return;
    try {
      await this.settings.insertMany([{ _id: SETTINGS_ID, ...values }]);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.settings.updateById(SETTINGS_ID, values);
    }
  }
}

function sortByPosition<T extends { position: number; _id: string }>(docs: T[]): T[] {
  return docs.sort((a, b) => a.position - b.position || a._id.localeCompare(b._id));
}
