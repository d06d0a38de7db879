import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TokenPayload } from '@common/schemas/auth';
import { jwtVerify, SignJWT } from 'jose';
import { ConfigError } from '../../config';

const ALGORITHM = 'HS256';
export const TOKEN_TTL = '7d';

/** Signs and verifies sign-in tokens (JWT, HS256 only, with an expiry). */
export class TokenService {
  constructor(private readonly key: Uint8Array) {}

  sign(user: TokenPayload['user']): Promise<string> {
    return new SignJWT({ user })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(TOKEN_TTL)
      .sign(this.key);
  }

  /** The payload of a valid token, or null for anything forged, expired or malformed. */
  async verify(token: string): Promise<TokenPayload['user'] | null> {
    try {
      const { payload } = await jwtVerify<TokenPayload>(token, this.key, { algorithms: [ALGORITHM] });
      const user = payload.user;
      if (typeof user?.id !== 'string' || typeof user.tv !== 'number') return null;
      return user;
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
  // 'wx' fails if another process created it meanwhile; then read theirs.
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
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
