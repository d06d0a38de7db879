import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How long a client may take over each part of a request. */
export interface RequestTimeouts {
  /** From connecting (or the end of the previous request) to the end of the request's headers. */
  headersMs: number;
  /** The whole body of a request from someone not signed in (at most 16 KB: see body-limit.ts). */
  publicBodyMs: number;
  /**
   * The longest pause in a signed-in request's body (an upload of 200 MB may take an hour on a
   * slow line; it is cut only when nothing arrives for this long).
   */
  bodyIdleMs: number;
}

export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = {
  headersMs: 20_000,
  publicBodyMs: 20_000,
  bodyIdleMs: 60_000,
};

const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Slow clients cannot keep a connection for good, whether they reach the app directly (HOST=0.0.0.0
 * without nginx) or through nginx, and whether the socket was accepted by the server itself or
 * handed over by `npm start`'s supervisor (ConnectionPool turns on the same bookkeeping there).
 *
 * Node's own headers timeout covers a client that connects and sends nothing or sends its headers
 * slowly (checked every second). Node's request timeout would also cut a genuinely slow upload,
 * so it stays off and bodies are timed here instead: a stranger's (small) body must arrive whole
 * within `publicBodyMs`; a signed-in request's body may take as long as it needs while it moves.
 */
export function registerRequestTimeouts(app: FastifyInstance, timeouts: RequestTimeouts): void {
  // Node reads connectionsCheckingInterval when it starts its checks (on listen, or when the
  // ConnectionPool turns them on); @types/node 20 does not declare it.
  const server = app.server as typeof app.server & { connectionsCheckingInterval: number };
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = 0;
  // How often Node checks the headers timeout (the default, 30 s, would let it run to 50 s).
  server.connectionsCheckingInterval = Math.min(1000, timeouts.headersMs);

  app.addHook('preParsing', (request, reply, payload, done) => {
    const socket = request.raw.socket;
    if (!hasBody(request) || request.raw.complete || !socket || typeof socket.setTimeout !== 'function')
      return done(null, payload);
    if (request.user) {
      // Idle, not total: every byte that arrives starts the pause afresh.
      socket.setTimeout(timeouts.bodyIdleMs);
      const stop = () => socket.setTimeout(0);
      request.raw.once('end', stop);
      request.raw.once('close', stop);
    } else {
      const timer = setTimeout(() => {
        if (request.raw.complete) return;
        if (!socket.destroyed && !request.raw.socket.writableEnded) {
          if (!reply.raw.headersSent) socket.end(TIMED_OUT);
          socket.destroySoon();
        }
      }, timeouts.publicBodyMs);
      const stop = () => clearTimeout(timer);
      request.raw.once('end', stop);
      request.raw.once('close', stop);
    }
    done(null, payload);
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
