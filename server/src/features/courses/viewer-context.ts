import type { PreviewViewer } from '@common/courses';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { bearerToken } from '../auth/auth.guard';
import type { UserDoc } from '../users/users.repository';
import { previewViewer, type Viewer, viewerOf } from './access/access-rules';
import type { ViewerSession } from './lesson-files/file-links';

/** The viewer of a request: for access (`viewer`), for drafts (`admin`) and for file links (`session`). */
export interface ViewerContext {
  viewer: Viewer;
  /** An administrator sees drafts, whoever they preview as. */
  admin: boolean;
  session: ViewerSession;
}

/**
 * Who asks a course route: a visitor (no token), or the member or administrator the token
 * belongs to, checked as every guard checks it (a stale or ended session is a 401, so the client
 * signs out rather than showing a visitor's view). An administrator may preview a course as
 * another viewer (`?as=`).
 */
export async function viewerContextOf(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Pick<AppContext, 'guards'>,
  preview?: PreviewViewer,
): Promise<ViewerContext & { user: UserDoc | null }> {
  if (!bearerToken(request)) return visitorContext();
  await ctx.guards.requireUser.call(request.server, request, reply);
  const user = request.user!;
  const session = { userId: user._id, sessionId: request.sessionId! };
  if (user.role === 'admin' && preview) return { viewer: previewViewer(preview), admin: true, session, user };
  return { viewer: viewerOf(user), admin: user.role === 'admin', session, user };
}

export function visitorContext(): ViewerContext & { user: null } {
  return {
    viewer: { kind: 'visitor', preview: null },
    admin: false,
    session: { userId: null, sessionId: null },
    user: null,
  };
}
