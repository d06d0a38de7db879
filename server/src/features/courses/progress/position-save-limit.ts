import { POSITION_SAVE_EVERY_MS } from '@common/courses';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/app-error';
import { SharedRateCounters } from '../../../lib/rate-limiter';
import type { CounterStore } from '../../../store/counters';

/** The window position saves are counted in, per member. */
export const POSITION_SAVES_WINDOW_MS = 60_000;
/**
 * Position saves one member may send in a window: a playing lesson saves every
 * POSITION_SAVE_EVERY_MS (6 a minute), and once more on each pause, seek's end and page change.
 * Five times the steady rate leaves room for two tabs and a restless thumb, and refuses a script.
 */
export const POSITION_SAVES_MAX = 5 * (POSITION_SAVES_WINDOW_MS / POSITION_SAVE_EVERY_MS);
/** A position save's body is two numbers: `{"seconds":…,"duration":…}`. */
export const POSITION_BODY_LIMIT = 1024;

/**
 * The position saves' own limit (they are left out of the general API limit, see
 * http/api-rate-limit.ts): POSITION_SAVES_MAX per member in POSITION_SAVES_WINDOW_MS, counted in
 * the store's shared counters so that it holds across server processes. Runs after the route's
 * sign-in guard; a refused save gets 429 with Retry-After and writes nothing.
 */
export function positionSaveLimit(counters: CounterStore) {
  const shared = new SharedRateCounters(counters, 'position:');
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const wait = await shared.hit(request.user!._id, POSITION_SAVES_MAX, POSITION_SAVES_WINDOW_MS);
    if (wait === 0) return;
    reply.header('retry-after', String(wait));
    throw new AppError(
      'RATE_LIMITED',
      `Too many position saves. Please try again in ${wait} second${wait === 1 ? '' : 's'}.`,
    );
  };
}
