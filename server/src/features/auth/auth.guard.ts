import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { SessionsService } from '../sessions/sessions.service';
import type { UserDoc, UsersRepository } from '../users/users.repository';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, read fresh from the store on every request by the guards. */
    user?: UserDoc;
    /** The id of the server-side session the request's token belongs to. */
    sessionId?: string;
  }
}

export interface Guards {
  /** Any signed-in, active user. */
  requireUser: preHandlerAsyncHookHandler;
  /** A signed-in, active administrator. The one check every admin-only route uses. */
  requireAdmin: preHandlerAsyncHookHandler;
}

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer ([\w.-]+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * The token only says who the caller claims to be and which session it belongs to. The session
 * and the user are read fresh on each request, so a signed-out session, or a suspended, demoted
 * or deleted user's token, stops working at once.
 */
export function createGuards(sessions: SessionsService, users: UsersRepository): Guards {
  async function authenticate(request: FastifyRequest): Promise<UserDoc> {
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
    const session = await sessions.check(token);
    const user = await users.findById(session.userId);
    if (!user) throw new AppError('UNAUTHENTICATED', 'Your session has expired. Please sign in again.');
    if (user.status !== 'active') throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended.');
    request.user = user;
    request.sessionId = session._id;
    return user;
  }

  return {
    async requireUser(request: FastifyRequest, _reply: FastifyReply) {
      await authenticate(request);
    },
    async requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
      const user = await authenticate(request);
      if (user.role !== 'admin') throw new AppError('NOT_ADMIN', 'Administrator access is required.');
    },
  };
}
