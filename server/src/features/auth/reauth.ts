import { createHash } from 'node:crypto';
import { REAUTH_HEADER, REAUTH_TTL_MS } from '@common/schemas/reauth';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { UserDoc } from '../users/users.repository';
import { loadJose } from './jose';

const ALGORITHM = 'HS256';
/** Sign-in tokens carry no audience, so neither kind of token can stand in for the other. */
const AUDIENCE = 'reauth';

export const REAUTH_MESSAGE = 'Please confirm your password to make this change.';

/**
 * The proof that an administrator typed their password again in the last 10 minutes. It is
 * bound to their id, their session (signing out or a password reset voids it) and the very sign-in token
 * it was asked with, so a stolen token alone, however fresh, never passes, and a proof stolen
 * on its own is useless without that token.
 */
export class ReauthProofs {
  constructor(private readonly key: Uint8Array) {}

  async issue(
    user: UserDoc,
    sessionId: string,
    bearer: string,
    now = Date.now(),
  ): Promise<{ proof: string; expiresAt: Date }> {
    const expiresAt = new Date(now + REAUTH_TTL_MS);
    const { SignJWT } = await loadJose();
    const proof = await new SignJWT({ sid: sessionId, th: tokenHash(bearer) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(user._id)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { proof, expiresAt };
  }

  /** True when the request carries a valid proof for its own signed-in user and token. */
  async holds(request: FastifyRequest): Promise<boolean> {
    const proof = request.headers[REAUTH_HEADER];
    const user = request.user;
    const bearer = bearerOf(request);
    if (typeof proof !== 'string' || !user || !bearer || !request.sessionId) return false;
    const { jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(proof, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE });
      return (
        payload.sub === user._id && payload.sid === request.sessionId && payload.th === tokenHash(bearer)
      );
    } catch {
      return false;
    }
  }

  /** Throws REAUTH_REQUIRED (the console then asks for the password and sends the call again). */
  async require(request: FastifyRequest): Promise<void> {
    if (!(await this.holds(request))) throw new AppError('REAUTH_REQUIRED', REAUTH_MESSAGE);
  }

  /** As a route's preHandler, after the admin guard has set `request.user`. */
  readonly guard = async (request: FastifyRequest): Promise<void> => this.require(request);
}

export function bearerOf(request: FastifyRequest): string | undefined {
  return /^Bearer ([\w.-]+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
