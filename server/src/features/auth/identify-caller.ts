import type { FastifyRequest } from 'fastify';
import type { Caller, IdentifyCaller } from '../../http/api-rate-limit';
import type { SessionsService } from '../sessions/sessions.service';
import type { TokenService } from '../sessions/token-service';
import type { UsersRepository } from '../users/users.repository';
import { bearerToken } from './auth.guard';

const VISITOR: Caller = { kind: 'visitor' };

/**
 * Who the general rate limit counts a request against. Only a token claiming the admin role
 * costs a read of the session and the user, so a member demoted, suspended or signed out since
 * the token was signed is counted again at once; a member's token is trusted for its id alone
 * (the budget it buys is theirs, and a forged one does not verify).
 */
export function identifyCaller(deps: {
  tokens: TokenService;
  sessions: SessionsService;
  users: UsersRepository;
}): IdentifyCaller {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const claims = token ? await deps.tokens.verify(token) : null;
    if (!token || !claims) return VISITOR;
    if (claims.role === 'admin') {
      const session = await deps.sessions.check(token).catch(() => null);
      const user = session && (await deps.users.findById(session.userId));
      if (user?.role === 'admin' && user.status === 'active') return { kind: 'admin' };
    }
    return { kind: 'member', id: claims.id };
  };
}
