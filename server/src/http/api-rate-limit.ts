import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../features/auth/auth.guard';
import type { TokenService } from '../features/auth/token-service';
import type { SessionsService } from '../features/sessions/sessions.service';
import type { UsersRepository } from '../features/users/users.repository';
import { AppError } from '../lib/app-error';
import type { LiveSettings } from './live-settings';

/**
 * The general API rate limit (the console's Rate Limit Window and Max Requests), a fixed
 * window per caller: visitors are counted per address, signed-in members per account (so
 * members behind one office address do not share a budget). Not counted: a signed-in
 * administrator's requests, the slideshow's reloads, static files and /media (they are not
 * under /api), the health check, CORS preflights and answers of 304. The sign-in routes keep
 * their own, stricter limits on top of this one.
 */
export function registerApiRateLimit(app: FastifyInstance, deps: CallerDeps & { live: LiveSettings }): void {
  const counters = new WindowCounters();
  // A new rule starts a fresh window for everyone, instead of judging old counts by it.
  deps.live.onChange((next, previous) => {
    if (next.rateLimitMax !== previous.rateLimitMax || next.rateLimitWindowMs !== previous.rateLimitWindowMs)
      counters.clear();
  });
  const keys = new WeakMap<FastifyRequest, string>();

  async function count(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = await callerKey(request, deps);
    if (key === null) return;
    const { rateLimitMax, rateLimitWindowMs } = deps.live.current;
    const wait = counters.hit(key, rateLimitMax, rateLimitWindowMs);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      const minutes = Math.ceil(wait / 60);
      throw new AppError(
        'RATE_LIMITED',
        wait < 60
          ? `Too many requests. Please try again in ${wait} second${wait === 1 ? '' : 's'}.`
          : `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    keys.set(request, key);
  }

  // Callback style, so that the requests that are not counted cost no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCounted(request)) return done();
    count(request, reply).then(() => done(), done);
  });

  // A 304 cost the server next to nothing and is what a well-behaved client does: refunded.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 304) {
      const key = keys.get(request);
      if (key !== undefined) counters.refund(key);
    }
    done();
  });
}

const UNCOUNTED_GETS = [/^\/api\/slider\/public$/, /^\/api\/slider\/defaults\//, /^\/api\/health$/];

function isCounted(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '';
  if (!pathname.startsWith('/api/') || request.method === 'OPTIONS') return false;
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  return !(isRead && UNCOUNTED_GETS.some((pattern) => pattern.test(pathname)));
}

interface CallerDeps {
  tokens: TokenService;
  users: UsersRepository;
  sessions: SessionsService;
}

/**
 * 'user:<id>' for a validly signed token, 'ip:<address>' for anyone else, null for an active
 * administrator in a live session. Only a token claiming the admin role costs a read of the
 * session and the user, so a member demoted, suspended or signed out since is counted again at once.
 */
async function callerKey(request: FastifyRequest, deps: CallerDeps): Promise<string | null> {
  const token = bearerToken(request);
  const claims = token ? await deps.tokens.verify(token) : null;
  if (!claims) return `ip:${request.ip}`;
  if (claims.role === 'admin' && token) {
    const session = await deps.sessions.check(token).catch(() => null);
    const user = session && (await deps.users.findById(session.userId));
    if (user?.role === 'admin' && user.status === 'active') return null;
  }
  return `user:${claims.id}`;
}

/** Fixed windows in memory, one per key; expired ones are swept now and then. */
class WindowCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  /** Counts one request; answers the seconds to wait when over the limit (then nothing is counted). */
  hit(key: string, max: number, windowMs: number, now = Date.now()): number {
    if (now - this.lastSweep >= Math.min(windowMs, 60_000)) this.sweep(now);
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return 0;
    }
    if (entry.count >= max) return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
    entry.count += 1;
    return 0;
  }

  refund(key: string): void {
    const entry = this.windows.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  clear(): void {
    this.windows.clear();
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}
