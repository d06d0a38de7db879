import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a lesson file link works: long enough to start and seek, short enough to be useless when shared. */
export const LINK_TTL_MS = 20 * 60 * 1000;

/** The viewer a link is signed for: a member in one of their sessions, or a visitor (free previews). */
export type ViewerSession = { userId: string; sessionId: string } | { userId: null; sessionId: null };

const VISITOR = '-';

/**
 * Links to lesson files, signed for one viewer and one file until an expiry: an HMAC-SHA256 over
 * the three, with a key derived from the sign-in tokens' secret (JWT_SECRET, or the generated
 * DATA_DIR/jwt-secret), so every instance of a site checks every other's links and a copy of
 * the database cannot make them. A `<video>` cannot send the bearer token, so the link itself
 * says who it is for; whether that viewer may still open the file is read afresh on each request.
 */
export class FileLinks {
  private readonly key: Buffer;

  constructor(
    tokenKey: Uint8Array,
    private readonly ttlMs = LINK_TTL_MS,
  ) {
    // Its own key: a link's signature can never pass for anything signed with the token key.
    this.key = createHmac('sha256', Buffer.from(tokenKey)).update('lesson-file-links/v1').digest();
  }

  /** `/lesson-files/<file>/<name>?h=<viewer>&e=<expiry>&s=<signature>` and when it stops working. */
  sign(
    fileId: string,
    name: string,
    session: ViewerSession,
    now = Date.now(),
  ): { url: string; expiresAt: string } {
    const expires = Math.floor((now + this.ttlMs) / 1000);
    const who = session.userId ? `${session.userId}.${session.sessionId}` : VISITOR;
    const signature = this.signature(fileId, who, expires);
    const query = `h=${encodeURIComponent(who)}&e=${expires}&s=${signature}`;
    return {
      url: `/lesson-files/${fileId}/${encodeURIComponent(name)}?${query}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The viewer a valid, unexpired link to `fileId` was signed for; null for anything else. */
  verify(fileId: string, query: Record<string, unknown>, now = Date.now()): ViewerSession | null {
    const { h: who, e: expires, s: signature } = query;
    if (typeof who !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return null;
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return null;
    const expected = Buffer.from(this.signature(fileId, who, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (who === VISITOR) return { userId: null, sessionId: null };
    const [userId, sessionId] = who.split('.');
    return userId && sessionId ? { userId, sessionId } : null;
  }

  private signature(fileId: string, who: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}\n${who}\n${expires}`).digest('base64url');
  }
}
