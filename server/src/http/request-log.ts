import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

/** A response slower than this (from the request's arrival to its last byte) is logged as a warning. */
export const SLOW_REQUEST_MS = 1000;

/** Writes under these prefixes are changes made in the console: each one is logged at info. */
const CONSOLE_CHANGE = /^\/api\/(?:admin|media|playlists|slider\/config|system)(?:\/|$)/;

/** pino's level numbers, for a cheap "would a debug line be written now?" test. */
const DEBUG = 20;
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/** The error behind a 5xx answer, handed over by the error handler so that one line says it all. */
const failures = new WeakMap<FastifyRequest, unknown>();

export function recordFailure(request: FastifyRequest, error: unknown): void {
  failures.set(request, error);
}

/**
 * Replaces Fastify's per-request logging (an "incoming request" and a "request completed" line
 * for every request, which cost about half the throughput of the hot endpoints) with at most
 * one line per request, written only when it is worth reading at the logger's level right now.
 * The level can change while the server runs; each request's logger is made at the current
 * level, so it is read from there.
 *
 * - error: every 5xx answer, with the error that caused it;
 * - warn:  every request slower than `slowMs`;
 * - info:  every change made in the console (a write under /api/admin, /api/media,
 *          /api/playlists, /api/slider/config or /api/system): method, path, status, user id,
 *          time. Never a body, a query string, a header or a reset token (the path's token
 *          segment is written as [token]);
 * - debug: every request.
 *
 * Fastify calls `requestCompleted` once per response, after the onResponse hooks; an ordinary
 * fast read returns at the first test without building anything. Fastify's other log lines
 * (stream and serializer errors) are kept as they are.
 */
export class RequestLogController extends LogController {
  constructor(private readonly slowMs = SLOW_REQUEST_MS) {
    super();
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const method = request.method;
    const write = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
    if (!error && status < 500 && ms < this.slowMs && !write && !logsEveryRequest(reply.log)) return;
    logRequest(error ?? failures.get(request), request, reply, write, this.slowMs);
  }
}

/** True when the logger's level (as it is now) writes a line for every request. */
export function logsEveryRequest(log: FastifyBaseLogger): boolean {
  return (LEVEL_VALUES[log.level] ?? Number.POSITIVE_INFINITY) <= DEBUG;
}

function logRequest(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  write: boolean,
  slowMs: number,
): void {
  const path = withoutSecrets(request.url.split('?', 1)[0]!);
  const entry = {
    reqId: request.id,
    method: request.method,
    path,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    userId: request.user?._id,
    ip: request.ip,
  };
  const log = reply.log;
  if (entry.status >= 500 || err) log.error(err ? { ...entry, err } : entry, 'Request failed');
  else if (entry.ms >= slowMs) log.warn(entry, 'Slow request');
  else if (write && CONSOLE_CHANGE.test(path)) log.info(entry, 'Console change');
  else log.debug(entry, 'Request');
}

/** A password-reset link's token works like a password until it is used: never logged. */
export function withoutSecrets(path: string): string {
  return path.replace(/\/reset-password\/[^/]*/i, '/reset-password/[token]');
}

/**
 * Fastify would make a child logger for every request only to stamp its lines with `reqId`;
 * the request log above writes `reqId` itself, and ordinary requests write nothing at all, so
 * requests share the app's logger (and its level, as it is set at the moment). A route with its
 * own log level still gets a child of its own.
 */
export const sharedRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => (options.level || options.serializers ? logger.child(bindings, options) : logger);
