import type { FastifyInstance } from 'fastify';
import type { LiveSettings } from './live-settings';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = '600';

/** What the CORS rule adds to an answer: Access-Control-Allow-Origin (or none), and Vary: Origin. */
export interface CorsAnswer {
  allowOrigin: string | null;
  varyOrigin: boolean;
}

const NOT_CROSS_ORIGIN: CorsAnswer = { allowOrigin: null, varyOrigin: false };
const ANY_ORIGIN: CorsAnswer = { allowOrigin: '*', varyOrigin: false };
const REFUSED: CorsAnswer = { allowOrigin: null, varyOrigin: true };

/**
 * The rule for a request from `origin` (undefined: a same-site request), by the setting `allowed`.
 * With a list the answer depends on the asking origin, so caches are told to keep them apart.
 */
export function corsAnswer(allowed: '*' | readonly string[], origin: string | undefined): CorsAnswer {
  if (allowed === '*') return origin === undefined ? NOT_CROSS_ORIGIN : ANY_ORIGIN;
  if (origin !== undefined && allowed.includes(origin)) return { allowOrigin: origin, varyOrigin: true };
  return REFUSED;
}

/**
 * Cross-origin calls, by the console's CORS Origin setting as it is right now: '*' lets any
 * site call the API (sign-in tokens are bearer tokens, never cookies, so no site gets a
 * visitor's session for free); a list lets only those origins, and any other origin gets no
 * Access-Control-Allow-Origin, so browsers refuse it. Preflights are answered here, before any
 * guard. A request without an Origin header (a same-site page load) costs one header read.
 */
export function registerCors(app: FastifyInstance, live: LiveSettings): void {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    const { allowOrigin: allow, varyOrigin } = corsAnswer(live.current.corsOrigins, origin);
    if (varyOrigin) reply.header('vary', 'Origin');
    if (origin === undefined) return done();
    if (allow) reply.header('access-control-allow-origin', allow);
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'];
    if (!preflight) return done();
    if (allow) {
      reply.header('access-control-allow-methods', ALLOWED_METHODS);
      const headers = request.headers['access-control-request-headers'];
      if (headers) reply.header('access-control-allow-headers', headers);
      reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_S);
    }
    // Answered here either way: a preflight never reaches a route or a guard.
    reply.code(204).header('content-length', '0').send();
  });
}
