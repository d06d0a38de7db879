import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { TokenService } from './token-service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, read fresh from the store on every request by the guards. */
    user?: UserDoc;
  }
}

export interface Guards {
  /** Any signed-in, active user. */
  requireUser: preHandlerAsyncHookHandler;
  /** A signed-in, active administrator. The one check every admin-only route uses. */
  requireAdmin: preHandlerAsyncHookHandler;
}

/**
 * The token only says who the caller claims to be. The user is read fresh on each request,
 * so a suspended, demoted, deleted or password-reset user's older token stops working at once.
 */
export function createGuards(tokens: TokenService, users: UsersRepository): Guards {
  async function authenticate(request: FastifyRequest): Promise<UserDoc> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer ([\w.-]+)$/i.exec(header);
    if (!match?.[1]) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
    const claims = await tokens.verify(match[1]);
    const user = claims && (await users.findById(claims.id));
    if (!claims || !user || user.tokenVersion !== claims.tv) {
      throw new AppError('UNAUTHENTICATED', 'Your session has expired. Please sign in again.');
    }
    if (user.status !== 'active') throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended.');
    request.user = user;
    return user;
  }

  return {
    async requireUser(request: FastifyRequest, _reply: FastifyReply) {
      await authenticate(request);
    },
    async requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
      const user = await authenticate(request);
      if (user.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator access is required.');
    },
  };
}
