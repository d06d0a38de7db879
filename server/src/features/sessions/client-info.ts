import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from './sessions.service';

/** What a new session records about the browser that signed in. */
export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
