import type { SessionInfo } from '@common/schemas/account';
import { AppError } from '../../lib/app-error';
import type { UserDoc } from '../users/users.repository';
import type { SessionDoc, SessionsRepository } from './sessions.repository';
import type { TokenService } from './token-service';

/** How often a live session's "last seen" is written: often enough to show, rarely enough to cost nothing. */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;
const MAX_USER_AGENT = 300;
const SWEEP_BATCH = 10_000;
const FOREIGN_WARNING_EVERY_MS = 60_000;

/** Where a sign-in came from, kept for the member's list of sessions. */
export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

/**
 * Server-side sessions: every sign-in or registration creates one and its id travels in the
 * token's `jti`. A token is honoured only while its session exists and has not expired, so
 * signing out, a password change or an administrator can end a session before the token expires.
 */
export class SessionsService {
  private lastForeignWarning = 0;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly tokens: TokenService,
    private readonly log?: { warn(message: string): void },
  ) {}

  /** Starts a session for `user` and answers its token. */
  async start(user: Pick<UserDoc, '_id' | 'role'>, client: ClientInfo): Promise<string> {
    await this.dropExpired(user._id);
    const session = await this.sessions.create({
      userId: user._id,
      expiresAt: this.tokens.expiryFromNow(),
      lastSeenAt: new Date(),
      userAgent: (client.userAgent ?? '').slice(0, MAX_USER_AGENT),
      ip: client.ip,
    });
    return this.tokens.sign({ id: user._id, role: user.role }, session._id, session.expiresAt);
  }

  /**
   * The live session a token belongs to, or an UNAUTHENTICATED error. "Last seen" is written
   * only when it is older than LAST_SEEN_EVERY_MS.
   */
  async check(token: string): Promise<SessionDoc> {
    const claims = await this.tokens.verify(token);
    if (!claims) await this.noticeForeignSecret(token);
    const session = claims && (await this.sessions.findById(claims.sid));
    const now = Date.now();
    if (!claims || !session || session.userId !== claims.id || session.expiresAt.getTime() <= now) {
      throw new AppError('UNAUTHENTICATED', 'Your session has expired. Please sign in again.');
    }
    if (now - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
      await this.sessions.update(session._id, { lastSeenAt: new Date(now) });
    }
    return session;
  }

  /**
   * A refused token whose session is live in the store was signed by an instance with another
   * secret: several instances on one database without one JWT_SECRET, whose members are signed
   * out whenever another instance answers. Said in the log, at most once a minute.
   */
  private async noticeForeignSecret(token: string): Promise<void> {
    if (!this.log || Date.now() - this.lastForeignWarning < FOREIGN_WARNING_EVERY_MS) return;
    const claimed = this.tokens.claimedSessionId(token);
    const session = claimed && (await this.sessions.findById(claimed));
    if (!session || session.expiresAt.getTime() <= Date.now()) return;
    this.lastForeignWarning = Date.now();
    this.log.warn(
      'A sign-in token of a live session was signed with another secret: the app instances on this ' +
        'database do not share one JWT_SECRET, so members are signed out whenever another instance ' +
        'answers. Give every instance the same JWT_SECRET (docs/processes.md, "Several machines"). ' +
        '(Right after the secret was changed on purpose, this is expected: those members sign in again.)',
    );
  }

  end(sessionId: string): Promise<boolean> {
    return this.sessions.delete(sessionId);
  }

  /** Ends every session of `userId` but `keep` (when given); answers how many were ended. */
  async endAll(userId: string, keep?: string): Promise<number> {
    let ended = 0;
    for (const session of await this.sessions.listOf(userId)) {
      if (session._id !== keep && (await this.sessions.delete(session._id))) ended += 1;
    }
    return ended;
  }

  /** The user's live sessions, most recently used first, for their own eyes. */
  async list(userId: string, current?: string): Promise<SessionInfo[]> {
    const now = Date.now();
    return (await this.sessions.listOf(userId))
      .filter((session) => session.expiresAt.getTime() > now)
      .map((session) => ({
        id: session._id,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
        userAgent: session.userAgent,
        ip: session.ip,
        current: session._id === current,
      }));
  }

  /**
   * Sessions of people who never come back: removed a batch at each start of the server (the
   * rest at the next start, or at that user's next sign-in), so the collection cannot grow forever.
   */
  sweepExpired(): Promise<number> {
    return this.sessions.deleteExpired(new Date(), SWEEP_BATCH);
  }

  /** Expired sessions are removed at the user's next sign-in, so they cannot pile up. */
  private async dropExpired(userId: string): Promise<void> {
    const now = Date.now();
    for (const session of await this.sessions.listOf(userId)) {
      if (session.expiresAt.getTime() <= now) await this.sessions.delete(session._id);
    }
  }
}
