import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../features/auth/auth.guard';
import type { TokenService } from '../features/auth/token-service';
import type { SessionsService } from '../features/sessions/sessions.service';
import type { UsersRepository } from '../features/users/users.repository';
import { AppError } from '../lib/app-error';
import { clientKey } from '../lib/client-address';
import { BatchedRateCounters } from '../lib/rate-limiter';
import type { CounterStore } from '../store/counters';
import type { LiveSettings } from './live-settings';

/**
 * Members behind one office address share that address's budget only at this multiple of the
 * limit, so minting accounts cannot buy one address an endless budget.
 */
export const MEMBERS_PER_ADDRESS = 10;

/**
 * The general API rate limit (the console's Rate Limit Window and Max Requests), a fixed
 * window per caller: visitors are counted per address (IPv6 per /64), signed-in members per
 * account and, at MEMBERS_PER_ADDRESS times the limit, per address. The routes anyone may call
 * without signing in (`/api/auth/*` but `/me`: registration, sign-in, reset) are always counted
 * per address, whatever token is sent, so a fresh token never buys a fresh budget. Not counted: a
 * signed-in administrator's requests outside `/api/auth`, the slideshow's reloads, static files
 * and /media (they are not under /api), the health check, CORS preflights and answers of 304.
 * The sign-in routes keep their own, stricter limits on top of this one. The counts are the
 * site's, shared by every server process through the store (see BatchedRateCounters).
 */
export function registerApiRateLimit(
  app: FastifyInstance,
  deps: CallerDeps & { live: LiveSettings; counters: CounterStore },
): void {
  // Counted in memory and merged into the store's shared counters in small batches: no store
  // round trip per request, and the limit holds across processes to within one batch.
  const counters = new BatchedRateCounters(deps.counters, 'api:');
  app.addHook('onClose', () => counters.close());
  const counted = new WeakMap<FastifyRequest, string[]>();

  async function count(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const budgets = await callerBudgets(request, deps);
    const { rateLimitMax, rateLimitWindowMs } = deps.live.current;
    // The rule is part of the key: a new rule starts a fresh window for everyone, on every
    // process at once, instead of judging old counts by it (the old keys just run out).
    const rule = `${rateLimitMax}/${rateLimitWindowMs}:`;
    const keys: string[] = [];
    for (const budget of budgets) {
      const key = rule + budget.key;
      const times = budget.times;
      const wait = await counters.hit(key, rateLimitMax * times, rateLimitWindowMs);
      if (wait > 0) {
        for (const done of keys) await counters.refund(done);
        throw tooMany(reply, wait);
      }
      keys.push(key);
    }
    counted.set(request, keys);
  }

  // Callback style, so that the requests that are not counted cost no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCounted(request)) return done();
    count(request, reply).then(() => done(), done);
  });

  // A 304 cost the server next to nothing and is what a well-behaved client does: refunded.
  app.addHook('onResponse', (request, reply, done) => {
    const keys = reply.statusCode === 304 ? counted.get(request) : undefined;
    if (!keys) return done();
    Promise.all(keys.map((key) => counters.refund(key))).then(() => done(), done);
  });
}

function tooMany(reply: FastifyReply, wait: number): AppError {
  reply.header('retry-after', String(wait));
  const minutes = Math.ceil(wait / 60);
  return new AppError(
    'RATE_LIMITED',
    wait < 60
      ? `Too many requests. Please try again in ${wait} second${wait === 1 ? '' : 's'}.`
      : `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

const UNCOUNTED_GETS = [/^\/api\/slider\/public$/, /^\/api\/slider\/defaults\//, /^\/api\/health$/];

function isCounted(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '';
  if (!pathname.startsWith('/api/') || request.method === 'OPTIONS') return false;
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  return !(isRead && UNCOUNTED_GETS.some((pattern) => pattern.test(pathname)));
}

/** The sign-in routes' own calls that need a token; every other one anyone may call. */
const SIGNED_IN_AUTH = /^\/api\/auth\/(?:me|logout)(?:$|\?)/;

function isAnonymousCapable(url: string): boolean {
  return url.startsWith('/api/auth/') && !SIGNED_IN_AUTH.test(url);
}

interface CallerDeps {
  tokens: TokenService;
  users: UsersRepository;
  sessions: SessionsService;
}

/** The budgets one request is counted against, each a key and its multiple of the limit. */
type Budget = { key: string; times: number };

/**
 * The address alone for anonymous-capable routes and for anyone without a valid token; the
 * account and the address for a member; nothing for an active administrator. Only a token
 * claiming the admin role costs a read of the session and the user, so a member demoted, suspended
 * or signed out since the token was signed is counted again at once.
 */
async function callerBudgets(request: FastifyRequest, deps: CallerDeps): Promise<Budget[]> {
  const address = `ip:${clientKey(request.ip)}`;
  if (isAnonymousCapable(request.url)) return [{ key: address, times: 1 }];
  const token = bearerToken(request);
  const claims = token ? await deps.tokens.verify(token) : null;
  if (!claims) return [{ key: address, times: 1 }];
  if (claims.role === 'admin' && token) {
    const session = await deps.sessions.check(token).catch(() => null);
    const user = session && (await deps.users.findById(session.userId));
    if (user?.role === 'admin' && user.status === 'active') return [];
  }
  return [
    { key: `user:${claims.id}`, times: 1 },
    { key: `members:${address}`, times: MEMBERS_PER_ADDRESS },
  ];
}
