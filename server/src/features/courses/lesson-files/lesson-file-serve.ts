import type { LessonFileSlot } from '@common/courses';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../http/error-handler';
import { sendMediaFile } from '../../../http/send-file';
import type { SessionsRepository } from '../../sessions/sessions.repository';
import type { UsersRepository } from '../../users/users.repository';
import { lessonLock, viewerOf } from '../access/access-rules';
import type { CoursesRepository, LessonDoc } from '../courses.repository';
import { BROWSER_COOKIE, cookieOf, type FileLinks, type ViewerSession } from './file-links';
import type { LessonFilesRepository } from './lesson-files.repository';
import type { LessonFolder } from './lesson-upload';

export interface LessonFileServingDeps {
  links: FileLinks;
  files: LessonFilesRepository;
  courses: CoursesRepository;
  users: UsersRepository;
  sessions: SessionsRepository;
  folder: LessonFolder;
  clock?: () => Date;
}

/**
 * Serves `/lesson-files/<file>/<name>?h=…&e=…&s=…`, the signed links of lesson pages. Every
 * request (a video asks for many byte ranges) checks the signature and expiry, and for a member's
 * link the browser cookie of the session it was signed for (file-links.ts), then reads afresh
 * whether the viewer it was signed for may open the file now: their session still live, their account
 * active, their tier, the course published, the lesson open to them. A member made free loses
 * a paid course's links at the next range their player asks for. Byte ranges, ETag and HEAD as
 * /media serves them; never cached by the browser or a proxy.
 */
export function registerLessonFileServing(app: FastifyInstance, deps: LessonFileServingDeps): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/lesson-files/:fileId/:name',
    handler: (request, reply) =>
      serve(request as FastifyRequest<{ Params: { fileId: string } }>, reply, deps),
  });
}

/**
 * Whether the viewer a link was signed for (`signedFor`, already verified) may open the lesson
 * now: their session still live, their account active, the course published, the lesson open to
 * them. Lesson files and lesson pictures ask the same.
 */
export async function lessonOpenTo(
  signedFor: ViewerSession,
  lessonId: string,
  deps: Pick<LessonFileServingDeps, 'courses' | 'users' | 'sessions'>,
  now: Date,
): Promise<LessonDoc | 'not-found' | 'forbidden'> {
  const lesson = await deps.courses.findLesson(lessonId);
  if (!lesson) return 'not-found';
  const [course, section, session, user] = await Promise.all([
    deps.courses.findCourse(lesson.courseId),
    deps.courses.findSection(lesson.sectionId),
    signedFor.sessionId ? deps.sessions.findById(signedFor.sessionId) : null,
    signedFor.userId ? deps.users.findById(signedFor.userId) : null,
  ]);
  if (!course || !section) return 'not-found';
  if (signedFor.userId) {
    const live = session && session.userId === signedFor.userId && session.expiresAt > now;
    if (!live || !user || user.status !== 'active') return 'forbidden';
  }
  const viewer = viewerOf(user);
  if (!course.published && viewer.kind !== 'admin') return 'not-found';
  if (lessonLock(viewer, course, section.drip, lesson, now)) return 'forbidden';
  return lesson;
}

/** Who may open the file now, or why not (403 for a live link whose viewer lost access). */
async function allowed(
  fileId: string,
  query: Record<string, unknown>,
  browserCookie: string | undefined,
  deps: LessonFileServingDeps,
): Promise<
  { storedName: string; mime: string; name: string; slot: LessonFileSlot } | 'not-found' | 'forbidden'
> {
  const now = deps.clock?.() ?? new Date();
  const signedFor = deps.links.verify(fileId, query, browserCookie, now.getTime());
  if (!signedFor) return 'forbidden';
  const file = await deps.files.find(fileId);
  if (!file) return 'not-found';
  const lesson = await lessonOpenTo(signedFor, file.lessonId, deps, now);
  if (typeof lesson === 'string') return lesson;
  // A file the lesson no longer lists (replaced or removed) is gone for everyone.
  const listed = lesson.media?.id === file._id || lesson.downloads.some((d) => d.id === file._id);
  if (!listed) return 'not-found';
  return { storedName: file.storedName, mime: file.mime, name: file.name, slot: file.slot };
}

async function serve(
  request: FastifyRequest<{ Params: { fileId: string } }>,
  reply: FastifyReply,
  deps: LessonFileServingDeps,
): Promise<FastifyReply> {
  reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
  const { fileId } = request.params;
  const verdict = /^[0-9a-f]{24}$/.test(fileId)
    ? await allowed(
        fileId,
        request.query as Record<string, unknown>,
        cookieOf(request.headers.cookie, BROWSER_COOKIE),
        deps,
      )
    : 'not-found';
  if (verdict === 'not-found') return reply.code(404).send(errorBody('NOT_FOUND', 'No such file.'));
  if (verdict === 'forbidden')
    return reply
      .code(403)
      .send(
        errorBody(
          'FORBIDDEN',
          'This link has expired or is not yours. Open the lesson again for a fresh one.',
        ),
      );

  return sendMediaFile(
    request,
    reply,
    {
      absolute: deps.folder.pathOf(verdict.storedName),
      contentType: verdict.mime,
      cacheControl: 'private, no-store',
      disposition: `${verdict.slot === 'download' ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(verdict.name)}`,
    },
    () => reply.code(404).send(errorBody('NOT_FOUND', 'No such file.')),
  );
}
