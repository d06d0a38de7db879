import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a lesson file link works: long enough to start and seek, short enough to be useless when shared. */
export const LINK_TTL_MS = 20 * 60 * 1000;

/**
 * The cookie that binds a member's links to their browser: set by the lesson answer, sent by the
 * browser with every request under `/lesson-files` (a `<video>`'s ranges included), never readable
 * by scripts.
 */
export const BROWSER_COOKIE = 'lesson_browser';

/** The viewer a link is signed for: a member in one of their sessions, or a visitor (free previews). */
export type ViewerSession = { userId: string; sessionId: string } | { userId: null; sessionId: null };

const VISITOR = '-';

/**
 * Links to lesson files, signed for one viewer and one file until an expiry: an HMAC-SHA256 over
 * the three, with keys derived from the sign-in tokens' secret (JWT_SECRET, or the generated
 * DATA_DIR/jwt-secret), so every instance of a site checks every other's links and a copy of
 * the database cannot make them. A `<video>` cannot send the bearer token, so the link says who
 * it is for, sealed (`h=`, AES-256-GCM: no user id or session id in clear), and a member's link
 * works only with the browser cookie of that session (`BROWSER_COOKIE`, an HMAC of the session
 * id): a link pasted elsewhere is refused. Whether that viewer may still open the file is read
 * afresh on each request.
 */
export class FileLinks {
  private readonly key: Buffer;
  private readonly sealKey: Buffer;
  private readonly browserKeyKey: Buffer;

  constructor(
    tokenKey: Uint8Array,
    private readonly ttlMs = LINK_TTL_MS,
  ) {
    // Their own keys: a link's signature can never pass for anything signed with the token key.
    const derive = (label: string) => createHmac('sha256', Buffer.from(tokenKey)).update(label).digest();
    this.key = derive('lesson-file-links/v1');
    this.sealKey = derive('lesson-file-links/viewer/v1');
    this.browserKeyKey = derive('lesson-file-links/browser/v1');
  }

  /** `/lesson-files/<file>/<name>?h=<sealed viewer>&e=<expiry>&s=<signature>` and when it stops working. */
  sign(
    fileId: string,
    name: string,
    session: ViewerSession,
    now = Date.now(),
  ): { url: string; expiresAt: string } {
    return this.signed(fileId, `/lesson-files/${fileId}/${encodeURIComponent(name)}`, session, now);
  }

  /**
   * `/lesson-files/pictures/<lesson>/<stored name>?h=…&e=…&s=…`: a picture of a lesson's text,
   * signed like its files (same viewer, cookie and expiry), checked with `verify(pictureLinkId(…))`.
   */
  signPicture(
    lessonId: string,
    storedName: string,
    session: ViewerSession,
    now = Date.now(),
  ): { url: string; expiresAt: string } {
    const id = pictureLinkId(lessonId, storedName);
    return this.signed(id, `/lesson-files/${id}`, session, now);
  }

  private signed(
    id: string,
    address: string,
    session: ViewerSession,
    now: number,
  ): { url: string; expiresAt: string } {
    const expires = Math.floor((now + this.ttlMs) / 1000);
    const who = session.userId ? this.seal(`${session.userId}.${session.sessionId}`) : VISITOR;
    const signature = this.signature(id, who, expires);
    const query = `h=${encodeURIComponent(who)}&e=${expires}&s=${signature}`;
    return { url: `${address}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** The value of the browser cookie for one session: opaque, and only the server can make it. */
  browserKey(sessionId: string): string {
    return createHmac('sha256', this.browserKeyKey).update(sessionId).digest('base64url');
  }

  /**
   * The viewer a valid, unexpired link to `fileId` was signed for, when the request comes from
   * that viewer's browser (`browserCookie`, the cookie's value; visitors' links need none); null
   * for anything else.
   */
  verify(
    fileId: string,
    query: Record<string, unknown>,
    browserCookie: string | undefined,
    now = Date.now(),
  ): ViewerSession | null {
    const { h: who, e: expires, s: signature } = query;
    if (typeof who !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return null;
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return null;
    const expected = Buffer.from(this.signature(fileId, who, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (who === VISITOR) return { userId: null, sessionId: null };
    const [userId, sessionId] = (this.unseal(who) ?? '').split('.');
    if (!userId || !sessionId || !browserCookie) return null;
    const mine = Buffer.from(this.browserKey(sessionId));
    const sent = Buffer.from(browserCookie);
    if (sent.length !== mine.length || !timingSafeEqual(sent, mine)) return null;
    return { userId, sessionId };
  }

  private signature(fileId: string, who: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}\n${who}\n${expires}`).digest('base64url');
  }

  private seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  private unseal(text: string): string | null {
    const bytes = Buffer.from(text, 'base64url');
    if (bytes.length < 29) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** What a lesson picture's link signs: never a lesson file's id (those are 24 hex digits alone). */
export const pictureLinkId = (lessonId: string, storedName: string) => `pictures/${lessonId}/${storedName}`;

/** One cookie's value from a request's `Cookie` header, or undefined. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value binding a session's links to this browser: HttpOnly (no script reads it),
 * SameSite=Lax (another site's page cannot make the browser send it with its own `<video>` or
 * fetch), only for `/lesson-files`, Secure on HTTPS, gone when the browser closes.
 */
export function browserCookieHeader(value: string, secure: boolean): string {
  return `${BROWSER_COOKIE}=${value}; Path=/lesson-files; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
