import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { srcsetsOfUrls } from '../media/copies/layout';
import { SessionsRepository } from '../sessions/sessions.repository';
import { courseAdminRoutes } from './admin/course-admin.routes';
import { CourseAdminService } from './admin/course-admin.service';
import { LessonAdminService } from './admin/lesson-admin.service';
import { CoursePages } from './course-pages';
import { CoursesRepository } from './courses.repository';
import { coursesRoutes } from './courses.routes';
import { CoursesService } from './courses.service';
import { FileLinks } from './lesson-files/file-links';
import { registerLessonFileServing } from './lesson-files/lesson-file-serve';
import { LessonFilesRepository } from './lesson-files/lesson-files.repository';
import { LessonFolder } from './lesson-files/lesson-upload';
import { ProgressRepository } from './progress/progress.repository';
import { ProgressService } from './progress/progress.service';

export interface CoursesFeature {
  /** `/api/courses`: the catalogue, outlines, lessons, progress. */
  routes: (app: FastifyInstance) => Promise<void>;
  /** `/api/admin/courses`, registered inside the administrators' scope. */
  adminRoutes: (app: FastifyInstance) => Promise<void>;
  /** `/lesson-files/…`, the signed links. */
  registerFileServing: (app: FastifyInstance) => void;
  /** The public course pages' HTML, filled with each course's title, summary and link-preview tags. */
  pages: CoursePages;
}

/** Builds the courses feature around the app's context; `tokenKey` signs the lesson file links. */
export async function createCoursesFeature(ctx: AppContext, tokenKey: Uint8Array): Promise<CoursesFeature> {
  const repository = new CoursesRepository(ctx.store);
  const progress = new ProgressRepository(ctx.store);
  const files = new LessonFilesRepository(ctx.store);
  await Promise.all([repository.init(), progress.init(), files.init()]);
  const folder = new LessonFolder(ctx.config.lessonsDir);
  const links = new FileLinks(tokenKey);
  const courses = new CoursesService(repository, progress, links, async (urls) =>
    urls.length ? srcsetsOfUrls(await ctx.mediaFolder.get(), urls) : new Map(),
  );
  const lessonAdmin = new LessonAdminService(repository, files, folder);
  const courseAdmin = new CourseAdminService(repository, progress, lessonAdmin, ctx.log);
  return {
    routes: coursesRoutes(ctx, courses, new ProgressService(repository, progress)),
    adminRoutes: courseAdminRoutes(ctx, courseAdmin, lessonAdmin, folder),
    registerFileServing: (app) =>
      registerLessonFileServing(app, {
        links,
        files,
        courses: repository,
        users: ctx.users,
        sessions: new SessionsRepository(ctx.store),
        folder,
      }),
    pages: new CoursePages(courses, ctx.changes, ctx.config.publicUrl),
  };
}
