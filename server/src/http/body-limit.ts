import { Transform } from 'node:stream';
import { APP_SERVER_LIMITS } from '@common/schemas/app-server';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { AppError } from '../lib/app-error';
import type { LiveSettings } from './live-settings';

/**
 * Fastify's own limit is fixed when the app is built, so it is set to the largest size the
 * console allows and the live limit is enforced here instead.
 */
export const FASTIFY_BODY_LIMIT: FastifyServerOptions['bodyLimit'] = APP_SERVER_LIMITS.requestSizeMax;

function tooLarge(reply: FastifyReply): AppError {
  // The rest of an oversized body is never read: the connection ends after the answer.
  reply.header('connection', 'close');
  return Object.assign(new AppError('PAYLOAD_TOO_LARGE', 'The request is too large.'), { statusCode: 413 });
}

/**
 * The body limit of every route anyone may call without signing in (registration, sign-in,
 * reset, and any path no route answers): their bodies are a few short fields.
 */
export const PUBLIC_BODY_LIMIT = 16 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public route whose callers send more than PUBLIC_BODY_LIMIT, and prove who they are by
     * the body itself (a payment provider's signed events): its own limit for strangers.
     */
    publicBodyLimit?: number;
  }
}

/**
 * Request bodies larger than their limit get 413 before any parsing: from Content-Length when it
 * is given, else as soon as a streamed (chunked) body passes the limit. The limit is the
 * console's Max Request Size only once a guard has signed the caller in (every signed-in route
 * checks its token in an onRequest hook, which runs before this one); for anyone else it is
 * PUBLIC_BODY_LIMIT, so a stranger cannot make the server read and parse megabytes.
 * Multipart uploads (admin-only, checked before their body is read) keep their own per-file
 * limit (200MB, in the media feature), so they are not counted here.
 */
export function registerBodyLimit(app: FastifyInstance, live: LiveSettings): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const declared = request.headers['content-length'];
    // Most requests have no body at all: they pass without further work.
    if (declared === undefined && request.headers['transfer-encoding'] === undefined)
      return done(null, payload);
    if (request.user && /^multipart\//i.test(request.headers['content-type'] ?? ''))
      return done(null, payload);
    const limit = request.user
      ? live.current.maxRequestBytes
      : (request.routeOptions.config?.publicBodyLimit ?? PUBLIC_BODY_LIMIT);
    if (declared !== undefined) {
      if (Number(declared) > limit) return done(tooLarge(reply));
      return done(null, payload);
    }
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        (counted as Transform & { receivedEncodedLength?: number }).receivedEncodedLength = received;
        callback(received > limit ? tooLarge(reply) : null, chunk);
      },
    });
    payload.on('error', (error) => counted.destroy(error));
    // A route that reads its body answers 413 from its parser, which listens for this error. GET
    // and HEAD are answered without their body being read: unheard, the error would end the
    // process. Their connection is closed instead: at once when the answer has gone, else right
    // after it (tooLarge asked for `Connection: close`).
    counted.on('error', () => {
      if (reply.sent) request.raw.destroy();
    });
    done(null, payload.pipe(counted));
  });
}
