import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../http/error-handler';
import { sendMediaFile } from '../../../http/send-file';
import type { SessionsRepository } from '../../sessions/sessions.repository';
import type { UsersRepository } from '../../users/users.repository';
import type { CoursesRepository } from '../courses.repository';
import { BROWSER_COOKIE, cookieOf, type FileLinks, pictureLinkId } from '../lesson-files/file-links';
import { lessonOpenTo } from '../lesson-files/lesson-file-serve';
import { type CoursePictures, contentTypeOfPicture, coursePictureUrl } from './course-pictures';

export interface CoursePictureServingDeps {
  pictures: CoursePictures;
  links: FileLinks;
  courses: CoursesRepository;
  users: UsersRepository;
  sessions: SessionsRepository;
  clock?: () => Date;
}

const ID = /^[0-9a-f]{24}$/;
/** Covers change name with their content: an hour's cache never shows a stale one for long. */
const COVER_CACHE = 'public, max-age=3600';

/**
 * Serves a course's pictures from its own folder:
 * - `/course-pictures/<course>/<name>`: the course's current cover, to anyone (the catalogue
 *   shows every published course's card to visitors, paid courses' too). Any other picture of
 *   the course is not there (404): a lesson's pictures are never public.
 * - `/lesson-files/pictures/<lesson>/<name>?h=…&e=…&s=…`: a picture of a lesson's text, through
 *   the link the lesson answer signed, checked like a lesson file's (signature, expiry, the
 *   member's browser cookie, and whether that viewer may open the lesson now).
 */
export function registerCoursePictureServing(app: FastifyInstance, deps: CoursePictureServingDeps): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/course-pictures/:courseId/:name',
    handler: (request, reply) =>
      serveCover(request as FastifyRequest<{ Params: { courseId: string; name: string } }>, reply, deps),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/lesson-files/pictures/:lessonId/:name',
    handler: (request, reply) =>
      serveLessonPicture(
        request as FastifyRequest<{ Params: { lessonId: string; name: string } }>,
        reply,
        deps,
      ),
  });
}

const notFound = (reply: FastifyReply) => reply.code(404).send(errorBody('NOT_FOUND', 'No such picture.'));

async function serveCover(
  request: FastifyRequest<{ Params: { courseId: string; name: string } }>,
  reply: FastifyReply,
  deps: CoursePictureServingDeps,
): Promise<FastifyReply> {
  const { courseId, name } = request.params;
  const course = ID.test(courseId) ? await deps.courses.findCourse(courseId) : null;
  if (!course || course.coverUrl !== coursePictureUrl(courseId, name)) return notFound(reply);
  return sendMediaFile(
    request,
    reply,
    {
      absolute: deps.pictures.pathOf(courseId, name),
      contentType: contentTypeOfPicture(name),
      cacheControl: COVER_CACHE,
    },
    () => notFound(reply),
  );
}

async function serveLessonPicture(
  request: FastifyRequest<{ Params: { lessonId: string; name: string } }>,
  reply: FastifyReply,
  deps: CoursePictureServingDeps,
): Promise<FastifyReply> {
  reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
  const { lessonId, name } = request.params;
  if (!ID.test(lessonId)) return notFound(reply);
  const now = deps.clock?.() ?? new Date();
  const signedFor = deps.links.verify(
    pictureLinkId(lessonId, name),
    request.query as Record<string, unknown>,
    cookieOf(request.headers.cookie, BROWSER_COOKIE),
    now.getTime(),
  );
  if (!signedFor)
    return reply
      .code(403)
      .send(
        errorBody(
          'FORBIDDEN',
          'This link has expired or is not yours. Open the lesson again for a fresh one.',
        ),
      );
  const lesson = await lessonOpenTo(signedFor, lessonId, deps, now);
  if (lesson === 'not-found') return notFound(reply);
  if (lesson === 'forbidden')
    return reply.code(403).send(errorBody('FORBIDDEN', 'This lesson is not open to you.'));
  let absolute: string;
  try {
    absolute = deps.pictures.pathOf(lesson.courseId, name);
  } catch {
    return notFound(reply);
  }
  return sendMediaFile(
    request,
    reply,
    { absolute, contentType: contentTypeOfPicture(name), cacheControl: 'private, no-store' },
    () => notFound(reply),
  );
}
