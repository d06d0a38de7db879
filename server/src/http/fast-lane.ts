import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { type CorsAnswer, corsAnswer } from './cors';
import type { LiveSettings } from './live-settings';
import { logsEveryRequest } from './request-log';

/**
 * Answers one request from memory, headers included, or returns false to let Fastify answer it.
 * `cors` is what the CORS rule adds to this request's answer (see http/cors.ts).
 */
export type LaneAnswer = (request: IncomingMessage, response: ServerResponse, cors: CorsAnswer) => boolean;

/**
 * The busiest public reads, answered before Fastify sees them. `GET /api/slider/public` is asked
 * on every page load, focus and tab switch of every visitor, and its answer is bytes worked out
 * once per change; going through Fastify's routing, hooks and per-request logging bookkeeping
 * cost about a fifth of the server's time per answer (see bench/public-slides.bench.ts).
 *
 * What the hooks would do for such a request is done here or is already in the answer's bytes:
 * the security headers and the cache policy are part of the worked-out headers, the CORS rule is
 * applied here (the same function as the CORS hook), and the rate limit, body limits and guards
 * do not apply to a public read without a body. What a lane does not do, Fastify does: a lane
 * takes only GET and HEAD of its exact path (a query string goes to Fastify) with no body (one
 * announced by `Content-Length` or `Transfer-Encoding` goes to Fastify, for its body limit and
 * timeouts), and steps aside whenever it has nothing ready or the log is at `debug` (every
 * request is then logged by the request log). A lane answer is written from memory in one go, so it is not timed for the
 * slow-request warning. Node still applies the server's timeouts and keep-alive rules.
 */
export class FastLane {
  private readonly lanes = new Map<string, LaneAnswer>();
  private log: FastifyBaseLogger | undefined;

  constructor(private readonly live: LiveSettings) {}

  /** Answers GET and HEAD of exactly `path` (e.g. '/api/slider/public') with `answer` when it can. */
  add(path: string, answer: LaneAnswer): void {
    this.lanes.set(path, answer);
  }

  /** The app's logger, whose level says whether every request must go through the request log. */
  attachLogger(log: FastifyBaseLogger): void {
    this.log = log;
  }

  /**
   * For Fastify's `serverFactory` option: the HTTP server Fastify would make (with its keep-alive
   * and timeout settings), whose requests meet the lanes first.
   */
  readonly serverFactory: FastifyServerFactory = (fastify, options) => {
    const server: Server = createServer((request, response) => {
      if (!this.serve(request, response)) fastify(request, response);
    });
    // What Fastify sets on the server it makes itself (its defaults fill these options in).
    server.keepAliveTimeout = Number(options.keepAliveTimeout ?? 72_000);
    server.requestTimeout = Number(options.requestTimeout ?? 0);
    server.setTimeout(Number(options.connectionTimeout ?? 0));
    return server;
  };

  private serve(request: IncomingMessage, response: ServerResponse): boolean {
    const answer = this.lanes.get(request.url ?? '');
    if (answer === undefined) return false;
    const method = request.method;
    if ((method !== 'GET' && method !== 'HEAD') || (this.log && logsEveryRequest(this.log))) return false;
    // A request announcing a body goes to Fastify, whose body limit answers a stranger's large
    // one 413 at once and whose body timeouts end a slow one: answered here, the connection
    // would stay open for as long as the client kept trickling the body it announced.
    if (hasBody(request)) return false;
    return answer(request, response, corsAnswer(this.live.current.corsOrigins, request.headers.origin));
  }
}

/** A `Content-Length` other than 0 (Node refuses malformed ones before this), or any `Transfer-Encoding`. */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}
