import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TokenPayload } from '@common/schemas/auth';
import { writeFileDurably } from '../../lib/durable-file';
import { loadJose } from '../../lib/jose';
import { ConfigError } from '../../settings/config';

const ALGORITHM = 'HS256';
/** How long a sign-in lasts; a token claiming a later expiry was not made by this product. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Clocks of several processes may differ a little; nothing else may stretch a token's life. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** What a valid token says: who signed in, and the server-side session it belongs to. */
export interface TokenClaims {
  id: string;
  role: TokenPayload['user']['role'];
  /** The session's id (the token's `jti`). */
  sid: string;
}

/** Signs and verifies sign-in tokens (JWT, HS256 only, with an expiry and a session id). */
export class TokenService {
  constructor(private readonly key: Uint8Array) {}

  /** A token for the session `sessionId`, expiring with it (by default a full TTL from now). */
  async sign(
    user: TokenPayload['user'],
    sessionId: string,
    expiresAt = this.expiryFromNow(),
  ): Promise<string> {
    const { SignJWT } = await loadJose();
    return new SignJWT({ user })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setJti(sessionId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** When a session started now ends, in whole seconds as a token's `exp` carries it. */
  expiryFromNow(): Date {
    return new Date((Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS) * 1000);
  }

  /**
   * The claims of a valid token, or null for anything forged, expired, malformed, without an
   * expiry or session id, or with an expiry further away than this product ever issues.
   */
  async verify(token: string): Promise<TokenClaims | null> {
    const { jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify<TokenPayload>(token, this.key, {
        algorithms: [ALGORITHM],
        requiredClaims: ['exp', 'jti'],
      });
      const latest = Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS;
      if (typeof payload.exp !== 'number' || payload.exp > latest) return null;
      const user = payload.user;
      if (typeof user?.id !== 'string' || (user.role !== 'user' && user.role !== 'admin')) return null;
      if (typeof payload.jti !== 'string' || !payload.jti) return null;
      return { id: user.id, role: user.role, sid: payload.jti };
    } catch {
      return null;
    }
  }

  /**
   * The session id a token claims, read WITHOUT checking its signature: only to tell why a
   * token of a live session was refused (another instance signs with another secret), never to
   * let anyone in.
   */
  claimedSessionId(token: string): string | null {
    try {
      // The payload is the token's middle part, base64url JSON (read here so that jose stays unloaded).
      const { jti } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
      return typeof jti === 'string' && jti ? jti : null;
    } catch {
      return null;
    }
  }
}

/** Shorter secrets can be guessed offline from any one token. */
export const MIN_SECRET_BYTES = 32;

/**
 * The configured secret, else one generated on first start and kept in DATA_DIR, so that
 * tokens survive restarts without anyone having to invent a secret. A kept file that is empty or
 * shorter than MIN_SECRET_BYTES stops the start (a ConfigError naming the file): signing with
 * it would either fail every sign-in or make tokens forgeable.
 */
export async function loadTokenKey(dataDir: string, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, 'jwt-secret');
  const existing = await readSecret(file);
  if (existing !== null) return existing;
  const secret = randomBytes(48).toString('base64url');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Whole and on stable storage before it is used: a power cut can leave no file, never an empty one.
  await writeFileDurably(file, `${secret}\n`, { createOnly: true });
  const written = await readSecret(file);
  if (written === null) throw new Error(`Could not create ${file}`);
  return written;
}

async function readSecret(file: string): Promise<Uint8Array | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = new TextEncoder().encode(text.trim());
  if (key.length < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${file} holds ${key.length} byte${key.length === 1 ? '' : 's'}; a session secret needs at least ${MIN_SECRET_BYTES}. ` +
        'Delete the file to have a new one generated (everyone signs in again), or set JWT_SECRET.',
    );
  }
  return key;
}
