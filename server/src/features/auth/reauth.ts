import { createHash } from 'node:crypto';
import { REAUTH_HEADER, REAUTH_TTL_MS } from '@common/schemas/reauth';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { loadJose } from '../../lib/jose';
import type { UserDoc } from '../users/users.repository';
import { bearerToken } from './auth.guard';

const ALGORITHM = 'HS256';
/** Sign-in tokens carry no audience, so neither kind of token can stand in for the other. */
const AUDIENCE = 'reauth';

export const REAUTH_MESSAGE = 'Please confirm your password to make this change.';

/**
 * The proof that an administrator typed their password again in the last 10 minutes. It is
 * bound to their id, their session (signing out or a password reset voids it), the very sign-in token
 * it was asked with, so a stolen token alone, however fresh, never passes, and a proof stolen
 * on its own is useless without that token; and to the password it was typed with, so any change
 * of that password (the account page, the console, a reset) voids it, even in the session that
 * made the change and stays signed in.
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
    const proof = await new SignJWT({ sid: sessionId, th: tokenHash(bearer), ph: passwordHashTag(user) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(user._id)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { proof, expiresAt };
  }

  /**
   * True when the request carries a valid proof for its own signed-in user, token and current
   * password. `request.user` is the user the guard read from the store for this very request, so
   * a password changed since the proof was issued is seen.
   */
  async holds(request: FastifyRequest): Promise<boolean> {
    const proof = request.headers[REAUTH_HEADER];
    const user = request.user;
    const bearer = bearerToken(request);
    if (typeof proof !== 'string' || !user || !bearer || !request.sessionId) return false;
    const { jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(proof, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE });
      return (
        payload.sub === user._id &&
        payload.sid === request.sessionId &&
        payload.th === tokenHash(bearer) &&
        payload.ph === passwordHashTag(user)
      );
    } catch {
      return false;
    }
  }

  /** Throws REAUTH_REQUIRED (the console then asks for the password and sends the call again). */
  private async require(request: FastifyRequest): Promise<void> {
    if (!(await this.holds(request))) throw new AppError('REAUTH_REQUIRED', REAUTH_MESSAGE);
  }

  /**
   * The one way a route asks for it where every call needs it: as the route's preHandler, after
   * the admin guard has set `request.user`.
   */
  readonly guard = async (request: FastifyRequest): Promise<void> => this.require(request);

  /**
   * The one way where the data decide (creating an administrator, not a member): handed to the
   * service, which calls it when the change needs the password.
   */
  whenNeeded(request: FastifyRequest): ConfirmReauth {
    return () => this.require(request);
  }
}

/** Throws REAUTH_REQUIRED unless the acting administrator confirmed their password recently. */
export type ConfirmReauth = () => Promise<void>;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Stands for the stored password hash, which changes (new salt) with every new password. Hashed
 * again and cut short because a proof's claims are readable by whoever holds it: the tag tells
 * nothing about the password, it only has to differ once the password does.
 */
const passwordHashTag = (user: Pick<UserDoc, 'password'>) =>
  createHash('sha256').update(user.password).digest('base64url').slice(0, 22);
