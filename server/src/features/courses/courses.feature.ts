import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { srcsetsOfUrls } from '../media/copies/layout';
import type { CoursePictureUses } from '../media/course-uses';
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

/**
 * Courses: `/api/courses` (the catalogue, outlines, lessons, progress), `/api/admin/courses`
 * (the console's editor), `/lesson-files/…` (the signed links, signed with the context's key),
 * and the public course pages' HTML, filled with each course's title, summary and link-preview tags.
 */
export async function createCoursesFeature(
  ctx: AppContext,
): Promise<Feature & { pictureUses: CoursePictureUses }> {
  const repository = new CoursesRepository(ctx.store);
  const progress = new ProgressRepository(ctx.store);
  const files = new LessonFilesRepository(ctx.store);
  await Promise.all([repository.init(), progress.init(), files.init()]);
  const folder = new LessonFolder(ctx.config.lessonsDir);
  const links = new FileLinks(ctx.tokenKey);
  const courses = new CoursesService(repository, progress, links, async (urls) =>
    urls.length ? srcsetsOfUrls(await ctx.mediaFolder.get(), urls) : new Map(),
  );
  const lessonAdmin = new LessonAdminService(repository, files, folder);
  const courseAdmin = new CourseAdminService(repository, progress, lessonAdmin, ctx.log);
  const pages = new CoursePages(courses, ctx.changes, ctx.config.publicUrl);
  return {
    name: 'courses',
    routes: [
      {
        prefix: '/api/courses',
        plugin: coursesRoutes(courses, new ProgressService(repository, progress), links, ctx),
      },
    ],
    adminRoutes: [{ prefix: '/courses', plugin: courseAdminRoutes(courseAdmin, lessonAdmin, folder, ctx) }],
    serve: (app) =>
      registerLessonFileServing(app, {
        links,
        files,
        courses: repository,
        users: ctx.users,
        sessions: new SessionsRepository(ctx.store),
        folder,
      }),
    fillPage: (...args) => pages.fill(...args),
    pictureUses: () => repository.pictureUses(),
  };
}
