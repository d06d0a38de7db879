import type { CoursePrice } from '@common/schemas/course-views';
import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { srcsetsOfUrls } from '../media/copies/layout';
import type { CoursePictureUses } from '../media/course-uses';
import { SessionsRepository } from '../sessions/sessions.repository';
import { courseAdminRoutes } from './admin/course-admin.routes';
import { CourseAdminService } from './admin/course-admin.service';
import { LessonAdminService } from './admin/lesson-admin.service';
import { CoursePages, type PageFrame } from './course-pages';
import { CoursesRepository } from './courses.repository';
import { coursesRoutes } from './courses.routes';
import { CoursesService } from './courses.service';
import { FileLinks } from './lesson-files/file-links';
import { registerLessonFileServing } from './lesson-files/lesson-file-serve';
import { LessonFilesRepository } from './lesson-files/lesson-files.repository';
import { LessonFolder } from './lesson-files/lesson-upload';
import { registerCoursePictureServing } from './pictures/course-picture-serve';
import { CoursePictures, parseCoursePictureUrl } from './pictures/course-pictures';
import { CoursePicturesRepository } from './pictures/course-pictures.repository';
import { ProgressRepository } from './progress/progress.repository';
import { ProgressService } from './progress/progress.service';
import { VisitorPages } from './visitor-pages';

/** What the owner's figures read of the courses (features/figures/course-figures.ts). */
export interface CourseFiguresSource {
  courses: CoursesRepository;
  progress: ProgressRepository;
}

/**
 * Courses: `/api/courses` (the catalogue, outlines, lessons, progress), `/api/admin/courses`
 * (the console's editor), `/lesson-files/…` (the signed links, signed with the context's key),
 * and the public course pages' HTML, filled with each course's title, summary and link-preview tags.
 */
export async function createCoursesFeature(
  ctx: AppContext,
  deps: {
    frame: PageFrame;
    /** A course's price when it is sold on its own (the payments feature's `coursePrice`). */
    coursePrice?: (courseId: string) => Promise<CoursePrice | null>;
  },
): Promise<
  Feature & {
    pictureUses: CoursePictureUses;
    figuresSource: CourseFiguresSource;
    visitorPages: VisitorPages;
    /** The members' progress, whose watchers (the owner's figures) hear of every step and deletion. */
    progress: ProgressRepository;
  }
> {
  const repository = new CoursesRepository(ctx.store);
  const progress = new ProgressRepository(ctx.store);
  const files = new LessonFilesRepository(ctx.store);
  const pictureRecords = new CoursePicturesRepository(ctx.store);
  await Promise.all([repository.init(), progress.init(), files.init(), pictureRecords.init()]);
  const folder = new LessonFolder(ctx.config.lessonsDir);
  const pictures = new CoursePictures(ctx.config.lessonsDir, pictureRecords, () => ctx.mediaFolder.get());
  const moved = await pictures.moveFromLibrary(repository);
  if (moved.covers || moved.lessons) ctx.log.info(moved, 'Course pictures moved out of the media library');
  const links = new FileLinks(ctx.tokenKey);
  /** The library pictures a course's copy came from (their `from`), or the address itself. */
  const originsOf = async (urls: string[]): Promise<Map<string, string[]>> => {
    const from = new Map<string, string[]>();
    if (urls.some((url) => parseCoursePictureUrl(url)))
      for (const origin of await pictures.origins())
        from.set(origin.url, [...(from.get(origin.url) ?? []), origin.from]);
    return new Map(urls.map((url) => [url, from.get(url) ?? [url]]));
  };
  // A cover's resized copies are its library original's (public, like the cover); a lesson's
  // pictures have none, so nothing of a lesson is under /media.
  const copiesOf = async (urls: string[]) => {
    if (urls.length === 0) return new Map();
    const origins = await originsOf(urls);
    const library = [...new Set([...origins.values()].flat().filter((url) => url.startsWith('/media/')))];
    const srcsets = library.length ? await srcsetsOfUrls(await ctx.mediaFolder.get(), library) : new Map();
    return new Map(
      urls.flatMap((url) => {
        const srcset = origins
          .get(url)!
          .map((from) => srcsets.get(from))
          .find(Boolean);
        return srcset ? [[url, srcset] as const] : [];
      }),
    );
  };
  const courses = new CoursesService(repository, progress, links, copiesOf, deps.coursePrice);
  const lessonAdmin = new LessonAdminService(repository, files, folder, pictures);
  const courseAdmin = new CourseAdminService(repository, progress, lessonAdmin, ctx.log, pictures);
  const sessions = new SessionsRepository(ctx.store);
  const pages = new CoursePages(courses, ctx.changes, ctx.config.publicUrl, deps.frame);
  return {
    name: 'courses',
    routes: [
      {
        prefix: '/api/courses',
        plugin: coursesRoutes(courses, new ProgressService(repository, progress), links, ctx),
      },
    ],
    adminRoutes: [
      { prefix: '/courses', plugin: courseAdminRoutes(courseAdmin, lessonAdmin, folder, links, ctx) },
    ],
    serve: (app) => {
      registerLessonFileServing(app, {
        links,
        files,
        courses: repository,
        users: ctx.users,
        sessions,
        folder,
      });
      registerCoursePictureServing(app, { pictures, links, courses: repository, users: ctx.users, sessions });
    },
    fillPage: (...args) => pages.fill(...args),
    // The owner's course figures read the courses and their progress.
    figuresSource: { courses: repository, progress },
    progress,
    // The course and lesson pages a visitor may open, for the sitemap.
    visitorPages: new VisitorPages(repository),
    // The library pictures the courses' pictures came from: the slideshow leaves them out, and
    // deleting one asks first.
    pictureUses: async () => {
      const uses = await repository.pictureUses();
      const origins = await originsOf(uses.map((use) => use.url));
      return uses.flatMap((use) =>
        (origins.get(use.url) ?? [use.url])
          .filter((url) => url.startsWith('/media/'))
          .map((url) => ({ ...use, url })),
      );
    },
  };
}
