import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TokenPayload } from '@common/schemas/auth';
import { jwtVerify, SignJWT } from 'jose';

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

/**
 * The configured secret, else one generated on first start and kept in DATA_DIR, so that
 * tokens survive restarts without anyone having to invent a secret.
 */
export async function loadTokenKey(dataDir: string, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return new TextEncoder().encode((await readFile(file, 'utf8')).trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  // 'wx' fails if another process created it meanwhile; then read theirs.
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  return new TextEncoder().encode((await readFile(file, 'utf8')).trim());
}
