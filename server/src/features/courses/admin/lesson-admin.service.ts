import { MAX_LESSON_DOWNLOADS } from '@common/courses';
import type { AdminLesson, AdminLessonFile } from '@common/schemas/course-views';
import type { LessonUpdateBody } from '@common/schemas/courses';
import { AppError } from '../../../lib/app-error';
import type { CoursesRepository, LessonDoc, LessonFileRef } from '../courses.repository';
import type { LessonFilesRepository } from '../lesson-files/lesson-files.repository';
import type { LessonFolder, ReceivedFile } from '../lesson-files/lesson-upload';
import { renderMarkdown } from '../markdown';
import type { CoursePictures } from '../pictures/course-pictures';

const NO_SUCH_LESSON = 'No such lesson in this course.';

/** The owner's side of lessons: their text, settings and private files. */
export class LessonAdminService {
  constructor(
    private readonly courses: CoursesRepository,
    private readonly files: LessonFilesRepository,
    private readonly folder: LessonFolder,
    private readonly pictures: CoursePictures,
  ) {}

  async lesson(courseId: string, lessonId: string): Promise<LessonDoc> {
    const lesson = await this.courses.findLesson(lessonId);
    if (!lesson || lesson.courseId !== courseId) throw new AppError('NOT_FOUND', NO_SUCH_LESSON);
    return lesson;
  }

  async add(courseId: string, sectionId: string, title: string): Promise<AdminLesson> {
    const section = await this.courses.findSection(sectionId);
    if (!section || section.courseId !== courseId)
      throw new AppError('NOT_FOUND', 'No such section in this course.');
    const siblings = (await this.courses.lessonsOf(courseId)).filter((l) => l.sectionId === sectionId);
    const lesson = await this.courses.insertLesson({
      courseId,
      sectionId,
      title,
      position: (siblings.at(-1)?.position ?? 0) + 1,
      freePreview: false,
      durationMinutes: null,
      media: null,
      downloads: [],
      rev: 0,
    });
    await this.refreshTotals(courseId);
    return this.view(lesson);
  }

  async get(courseId: string, lessonId: string): Promise<AdminLesson> {
    return this.view(await this.lesson(courseId, lessonId));
  }

  async update(
    courseId: string,
    lessonId: string,
    body: LessonUpdateBody,
  ): Promise<{ before: AdminLesson; after: AdminLesson }> {
    const lesson = await this.lesson(courseId, lessonId);
    const before = await this.view(lesson);
    const { markdown: typed, ...fields } = body;
    // Library pictures become the course's own copies; rendered once here, so that every reader
    // gets the stored, sanitised HTML.
    if (typed !== undefined) {
      const markdown = await this.pictures.adoptInMarkdown(courseId, typed);
      await this.courses.saveBody(lessonId, markdown, await renderMarkdown(markdown));
    }
    const updated = Object.keys(fields).length ? await this.courses.updateLesson(lessonId, fields) : lesson;
    if (body.durationMinutes !== undefined) await this.refreshTotals(courseId);
    return { before, after: await this.view(updated ?? lesson) };
  }

  async remove(courseId: string, lessonId: string): Promise<LessonDoc> {
    const lesson = await this.lesson(courseId, lessonId);
    await this.removeLessonAndFiles(lesson);
    await this.refreshTotals(courseId);
    return lesson;
  }

  async removeLessonAndFiles(lesson: LessonDoc): Promise<void> {
    for (const file of await this.files.ofLesson(lesson._id)) {
      await this.files.delete(file._id);
      await this.folder.remove(file.storedName);
    }
    await this.courses.deleteLesson(lesson._id);
  }

  /**
   * Attaches an uploaded file: the lesson's media (replacing the one before) or a download. The
   * lesson's list changes by compare-and-set, so two uploads at once both land.
   */
  async attach(courseId: string, lessonId: string, received: ReceivedFile): Promise<AdminLesson> {
    let lesson = await this.lesson(courseId, lessonId);
    const record = await this.files.insert({
      courseId,
      lessonId,
      slot: received.slot,
      name: received.name,
      storedName: received.storedName,
      size: received.size,
      mime: received.mime,
    });
    const ref: LessonFileRef = { id: record._id, name: record.name, size: record.size, mime: record.mime };
    for (;;) {
      if (received.slot === 'download' && lesson.downloads.length >= MAX_LESSON_DOWNLOADS) {
        await this.forget(record._id, record.storedName);
        throw new AppError('VALIDATION', `A lesson has at most ${MAX_LESSON_DOWNLOADS} downloads.`);
      }
      const replaced = received.slot === 'media' ? lesson.media : null;
      const changes =
        received.slot === 'media'
          ? { media: { ...ref, kind: received.kind ?? 'video' } }
          : { downloads: [...lesson.downloads, ref] };
      const written = await this.courses.updateLessonIfUnchanged(lesson, changes);
      if (written) {
        if (replaced) await this.forgetById(replaced.id);
        return this.view(written);
      }
      lesson = await this.lesson(courseId, lessonId);
    }
  }

  async detach(
    courseId: string,
    lessonId: string,
    fileId: string,
  ): Promise<{ name: string; after: AdminLesson }> {
    for (;;) {
      const lesson = await this.lesson(courseId, lessonId);
      const name =
        lesson.media?.id === fileId ? lesson.media.name : lesson.downloads.find((d) => d.id === fileId)?.name;
      if (!name) throw new AppError('NOT_FOUND', 'No such file in this lesson.');
      const changes =
        lesson.media?.id === fileId
          ? { media: null }
          : { downloads: lesson.downloads.filter((d) => d.id !== fileId) };
      const written = await this.courses.updateLessonIfUnchanged(lesson, changes);
      if (written) {
        await this.forgetById(fileId);
        return { name, after: await this.view(written) };
      }
    }
  }

  /** The course's lesson count and minutes, kept on the course so lists never count lessons. */
  async refreshTotals(courseId: string): Promise<void> {
    const lessons = await this.courses.lessonsOf(courseId);
    const sections = new Set((await this.courses.sectionsOf(courseId)).map((s) => s._id));
    const placed = lessons.filter((l) => sections.has(l.sectionId));
    await this.courses.updateCourse(courseId, {
      lessonCount: placed.length,
      totalMinutes: placed.reduce((sum, l) => sum + (l.durationMinutes ?? 0), 0),
    });
  }

  private async forgetById(fileId: string): Promise<void> {
    const file = await this.files.find(fileId);
    if (file) await this.forget(file._id, file.storedName);
  }

  private async forget(fileId: string, storedName: string): Promise<void> {
    await this.files.delete(fileId);
    await this.folder.remove(storedName);
  }

  async view(lesson: LessonDoc): Promise<AdminLesson> {
    const body = await this.courses.findBody(lesson._id);
    const file = (ref: LessonFileRef): AdminLessonFile => ({
      id: ref.id,
      name: ref.name,
      size: ref.size,
      mime: ref.mime,
    });
    return {
      id: lesson._id,
      sectionId: lesson.sectionId,
      title: lesson.title,
      markdown: body?.markdown ?? '',
      freePreview: lesson.freePreview,
      durationMinutes: lesson.durationMinutes,
      media: lesson.media ? { ...file(lesson.media), kind: lesson.media.kind } : null,
      downloads: lesson.downloads.map(file),
    };
  }
}
