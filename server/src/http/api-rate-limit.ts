import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  deps: { identify: IdentifyCaller; live: LiveSettings; counters: CounterStore },
): void {
  // Counted in memory and merged into the store's shared counters in small batches: no store
  // round trip per request, and the limit holds across processes to within one batch.
  const counters = new BatchedRateCounters(deps.counters, 'api:');
  app.addHook('onClose', () => counters.close());

  async function count(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const budgets = await callerBudgets(request, deps.identify);
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
    // A 304 cost the server next to nothing and is what a well-behaved client does: refunded.
    // Watched only on the requests that were counted, so the others cost no hook at the end.
    if (keys.length > 0)
      reply.raw.once('finish', () => {
        if (reply.raw.statusCode === 304) for (const key of keys) void counters.refund(key);
      });
  }

  // Callback style, so that the requests that are not counted cost no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCounted(request)) return done();
    count(request, reply).then(() => done(), done);
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route keeps a limit of its own instead of this one (a lesson's position saves, every
     * ~10 s while it plays: features/courses/progress/position-save-limit.ts).
     */
    ownRateLimit?: boolean;
  }
}

/**
 * A route that keeps its own limit says so in its config. Read from the route Fastify matched,
 * never from the raw URL: a query string (`…/complete?x=/position`) cannot pass for such a route.
 */
function hasOwnLimit(request: FastifyRequest): boolean {
  return request.routeOptions.config?.ownRateLimit === true;
}

/** Runs on every request: plain string tests, no regular expression, no split. */
function isCounted(request: FastifyRequest): boolean {
  const url = request.url;
  const method = request.method;
  if (!url.startsWith('/api/') || method === 'OPTIONS') return false;
  if (method !== 'GET' && method !== 'HEAD') return !hasOwnLimit(request);
  const end = url.indexOf('?');
  const pathname = end === -1 ? url : url.slice(0, end);
  return !(
    pathname === '/api/slider/public' ||
    pathname === '/api/health' ||
    pathname.startsWith('/api/slider/defaults/')
  );
}

/** The sign-in routes' own calls that need a token; every other one anyone may call. */
const SIGNED_IN_AUTH = /^\/api\/auth\/(?:me|logout)(?:$|\?)/;

function isAnonymousCapable(url: string): boolean {
  return url.startsWith('/api/auth/') && !SIGNED_IN_AUTH.test(url);
}

/**
 * Who a request's token says the caller is, as far as the limit cares: an administrator (whose
 * session and account were checked), a member (by the token alone), or a visitor (no valid token).
 * Supplied by the auth feature (features/auth/identify-caller.ts), so this floor knows no feature.
 */
export type Caller = { kind: 'visitor' } | { kind: 'member'; id: string } | { kind: 'admin' };
export type IdentifyCaller = (request: FastifyRequest) => Promise<Caller>;

/** The budgets one request is counted against, each a key and its multiple of the limit. */
type Budget = { key: string; times: number };

/**
 * The address alone for anonymous-capable routes and for anyone without a valid token; the
 * account and the address for a member; nothing for an active administrator.
 */
async function callerBudgets(request: FastifyRequest, identify: IdentifyCaller): Promise<Budget[]> {
  const address = `ip:${clientKey(request.ip)}`;
  if (isAnonymousCapable(request.url)) return [{ key: address, times: 1 }];
  const caller = await identify(request);
  if (caller.kind === 'visitor') return [{ key: address, times: 1 }];
  if (caller.kind === 'admin') return [];
  return [
    { key: `user:${caller.id}`, times: 1 },
    { key: `members:${address}`, times: MEMBERS_PER_ADDRESS },
  ];
}
