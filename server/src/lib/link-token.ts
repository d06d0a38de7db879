import { createHash, randomBytes } from 'node:crypto';

const LINK_TOKEN_BYTES = 32; // 256 random bits

/** The secret part of a link mailed to someone (password reset, e-mail confirmation). */
export function newLinkToken(): string {
  return randomBytes(LINK_TOKEN_BYTES).toString('base64url');
}

/** Only this hash is stored, so a copy of the database holds no usable link. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
