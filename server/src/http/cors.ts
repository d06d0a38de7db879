import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { LiveSettings } from './live-settings';

/**
 * Cross-origin calls, by the console's CORS Origin setting as it is right now: '*' lets any
 * site call the API (sign-in tokens are bearer tokens, never cookies, so no site gets a
 * visitor's session for free); a list lets only those origins, and any other origin gets no
 * Access-Control-Allow-Origin, so browsers refuse it. Preflights are answered here, before
 * any guard, and never reach a route.
 */
export async function registerCors(app: FastifyInstance, live: LiveSettings): Promise<void> {
  await app.register(cors, {
    origin: (_origin, callback) => {
      const allowed = live.current.corsOrigins;
      callback(null, allowed === '*' ? '*' : allowed);
    },
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    maxAge: 600,
  });
}
