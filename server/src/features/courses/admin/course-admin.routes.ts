import { COURSE_ACCESS_LABELS, MAX_LESSON_FILE_BYTES } from '@common/courses';
import type { AdminCourse, AdminCourseRow, AdminLesson } from '@common/schemas/course-views';
import {
  type CoursesSettingsBody,
  courseCreateBody,
  coursesSettingsBody,
  courseUpdateBody,
  lessonCreateBody,
  lessonUpdateBody,
  markdownPreviewBody,
  outlineOrderBody,
  sectionCreateBody,
  sectionUpdateBody,
} from '@common/schemas/courses';
import type { DataAnswer } from '@common/schemas/envelopes';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context';
import { AppError } from '../../../lib/app-error';
import { parseInput } from '../../../lib/validate';
import type { ActivityInput } from '../../activity/activity.service';
import { browserCookieHeader, type FileLinks } from '../lesson-files/file-links';
import { type LessonFolder, receiveLessonFile } from '../lesson-files/lesson-upload';
import { renderMarkdown, withSignedPictures } from '../markdown';
import type { CourseAdminService } from './course-admin.service';
import type { LessonAdminService } from './lesson-admin.service';

type Ids = { id?: string; sectionId?: string; lessonId?: string; fileId?: string };
const ID = /^[0-9a-f]{24}$/;

function ids(request: FastifyRequest): Required<Ids> {
  const params = request.params as Ids;
  for (const value of Object.values(params))
    if (typeof value === 'string' && !ID.test(value))
      throw new AppError('NOT_FOUND', 'No such course, section, lesson or file.');
  return params as Required<Ids>;
}

/**
 * The console's Courses section (`/api/admin/courses`, behind the administrators' hook). Every
 * change is written to the Activity log and tells the other server processes (the public course
 * pages' HTML is worked out once per change).
 *
 * Seams, in order: the section's list, settings and Markdown preview; one course and its order;
 * its sections; its lessons and their files. Each group could become a plugin of its own.
 */
export function courseAdminRoutes(
  courses: CourseAdminService,
  lessons: LessonAdminService,
  folder: LessonFolder,
  links: FileLinks,
  ctx: Pick<AppContext, 'changes' | 'activity' | 'reauth'>,
) {
  return async (app: FastifyInstance) => {
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_LESSON_FILE_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5 },
    });
    const changed = async (request: FastifyRequest, entry: ActivityInput) => {
      await ctx.changes.bump('courses');
      await ctx.activity.record(request, entry);
    };
    const ok = <T>(data: T) => ({ success: true, data }) as DataAnswer<T>;

    app.get<{ Reply: DataAnswer<AdminCourseRow[]> }>('/', async () =>
      ok<AdminCourseRow[]>(await courses.list()),
    );

    app.post<{ Reply: DataAnswer<AdminCourse> }>('/', async (request, reply) => {
      const { title } = parseInput(courseCreateBody, request.body);
      const course = await courses.create(title);
      await changed(request, {
        kind: 'course.created',
        summary: `Created the course “${title}” (draft)`,
        after: course,
      });
      return reply.code(201).send(ok<AdminCourse>(course));
    });

    app.get<{ Reply: DataAnswer<CoursesSettingsBody> }>('/settings', async () =>
      ok(await courses.settings()),
    );

    app.put<{ Reply: DataAnswer<CoursesSettingsBody> }>('/settings', async (request) => {
      const { before, after } = await courses.saveSettings(parseInput(coursesSettingsBody, request.body));
      await changed(request, {
        kind: 'course.settings',
        summary: 'Saved the upgrade offer shown to free members',
        before,
        after,
      });
      return ok(after);
    });

    // The editor's live preview: the very rules a lesson is saved with.
    // The course's own pictures show through links signed for this administrator, as on the lesson page.
    app.post<{ Reply: DataAnswer<{ html: string }> }>('/markdown-preview', async (request, reply) => {
      const { markdown, lessonId } = parseInput(markdownPreviewBody, request.body);
      const html = await renderMarkdown(markdown);
      if (!lessonId || !request.sessionId) return ok({ html });
      const session = { userId: request.user!._id, sessionId: request.sessionId };
      reply.header(
        'Set-Cookie',
        browserCookieHeader(links.browserKey(session.sessionId), request.protocol === 'https'),
      );
      return ok({ html: withSignedPictures(html, (name) => links.signPicture(lessonId, name, session).url) });
    });

    app.get<{ Reply: DataAnswer<AdminCourse> }>('/:id', async (request) =>
      ok<AdminCourse>(await courses.get(ids(request).id)),
    );

    app.put<{ Reply: DataAnswer<AdminCourse> }>('/:id', async (request) => {
      const body = parseInput(courseUpdateBody, request.body);
      const { before, after } = await courses.update(ids(request).id, body);
      const published = body.published !== undefined && body.published !== before.published;
      const what = [
        published ? (body.published ? 'published' : 'unpublished') : '',
        body.access && body.access !== before.access ? `access: ${COURSE_ACCESS_LABELS[body.access]}` : '',
      ].filter(Boolean);
      await changed(request, {
        kind: 'course.updated',
        summary: `Edited the course “${after.title}”${what.length ? ` (${what.join(', ')})` : ''}`,
        before: {
          title: before.title,
          slug: before.slug,
          summary: before.summary,
          coverUrl: before.coverUrl,
          access: before.access,
          published: before.published,
        },
        after: body,
      });
      return ok(after);
    });

    // A course goes with its lessons, files and every member's progress, for good: the password
    // is confirmed again first, as for the console's other changes that cannot be undone.
    app.delete<{ Reply: DataAnswer<{ id: string }> }>(
      '/:id',
      { preHandler: ctx.reauth.guard },
      async (request) => {
        const course = await courses.remove(ids(request).id);
        await changed(request, {
          kind: 'course.deleted',
          summary: `Deleted the course “${course.title}”`,
          before: { title: course.title, slug: course.slug },
        });
        return ok({ id: course._id });
      },
    );

    app.put<{ Reply: DataAnswer<AdminCourse> }>('/:id/order', async (request) => {
      const order = parseInput(outlineOrderBody, request.body);
      const course = await courses.reorder(ids(request).id, order);
      await changed(request, {
        kind: 'course.outline',
        summary: `Reordered the sections and lessons of “${course.title}”`,
        after: order,
      });
      return ok(course);
    });

    app.post<{ Reply: DataAnswer<AdminCourse> }>('/:id/sections', async (request, reply) => {
      const { title } = parseInput(sectionCreateBody, request.body);
      const course = await courses.addSection(ids(request).id, title);
      await changed(request, {
        kind: 'course.outline',
        summary: `Added the section “${title}” to “${course.title}”`,
      });
      return reply.code(201).send(ok(course));
    });

    app.put<{ Reply: DataAnswer<AdminCourse> }>('/:id/sections/:sectionId', async (request) => {
      const { id, sectionId } = ids(request);
      const body = parseInput(sectionUpdateBody, request.body);
      const { before, after } = await courses.updateSection(id, sectionId, body);
      await changed(request, {
        kind: 'course.outline',
        summary: `Edited the section “${body.title ?? before.title}” of “${after.title}”`,
        before: { title: before.title, drip: before.drip },
        after: body,
      });
      return ok(after);
    });

    app.delete<{ Reply: DataAnswer<AdminCourse> }>('/:id/sections/:sectionId', async (request) => {
      const { id, sectionId } = ids(request);
      const { section, after } = await courses.removeSection(id, sectionId);
      await changed(request, {
        kind: 'course.outline',
        summary: `Deleted the section “${section.title}” of “${after.title}” and its lessons`,
      });
      return ok(after);
    });

    app.post<{ Reply: DataAnswer<{ lesson: AdminLesson; course: AdminCourse }> }>(
      '/:id/sections/:sectionId/lessons',
      async (request, reply) => {
        const { id, sectionId } = ids(request);
        const { title } = parseInput(lessonCreateBody, request.body);
        const lesson = await lessons.add(id, sectionId, title);
        await changed(request, { kind: 'course.outline', summary: `Added the lesson “${title}”` });
        return reply.code(201).send(ok({ lesson, course: await courses.get(id) }));
      },
    );

    app.get<{ Reply: DataAnswer<AdminLesson> }>('/:id/lessons/:lessonId', async (request) => {
      const { id, lessonId } = ids(request);
      return ok<AdminLesson>(await lessons.get(id, lessonId));
    });

    app.put<{ Reply: DataAnswer<AdminLesson> }>('/:id/lessons/:lessonId', async (request) => {
      const { id, lessonId } = ids(request);
      const { before, after } = await lessons.update(
        id,
        lessonId,
        parseInput(lessonUpdateBody, request.body),
      );
      await changed(request, {
        kind: 'course.lesson',
        summary: `Edited the lesson “${after.title}”`,
        before,
        after,
      });
      return ok<AdminLesson>(after);
    });

    app.delete<{ Reply: DataAnswer<AdminCourse> }>('/:id/lessons/:lessonId', async (request) => {
      const { id, lessonId } = ids(request);
      const lesson = await lessons.remove(id, lessonId);
      await changed(request, { kind: 'course.outline', summary: `Deleted the lesson “${lesson.title}”` });
      return ok(await courses.get(id));
    });

    // One file per request, streamed to the lessons folder: the console shows each file's progress.
    app.post<{ Reply: DataAnswer<AdminLesson> }>('/:id/lessons/:lessonId/files', async (request, reply) => {
      const { id, lessonId } = ids(request);
      await lessons.lesson(id, lessonId);
      if (!request.isMultipart()) throw new AppError('VALIDATION', 'Send the file as multipart/form-data.');
      const received = await receiveLessonFile(request.parts(), folder);
      const lesson = await lessons.attach(id, lessonId, received).catch(async (error: unknown) => {
        await folder.remove(received.storedName);
        throw error;
      });
      await changed(request, {
        kind: 'course.file',
        summary: `Added ${received.slot === 'media' ? 'the video/audio' : 'the download'} ${received.name} to the lesson “${lesson.title}”`,
        after: { name: received.name, size: received.size, mime: received.mime },
      });
      return reply.code(201).send(ok<AdminLesson>(lesson));
    });

    app.delete<{ Reply: DataAnswer<AdminLesson> }>(
      '/:id/lessons/:lessonId/files/:fileId',
      async (request) => {
        const { id, lessonId, fileId } = ids(request);
        const { name, after } = await lessons.detach(id, lessonId, fileId);
        await changed(request, {
          kind: 'course.file',
          summary: `Removed ${name} from the lesson “${after.title}”`,
        });
        return ok<AdminLesson>(after);
      },
    );
  };
}
