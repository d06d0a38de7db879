import type { FastifyBaseLogger } from 'fastify';
import type { Feature } from '../../feature';
import { activityRoutes } from './activity.routes';
import type { ActivityLog } from './activity.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The Activity log's console page (`/api/admin/activity`) and its retention: entries past it go
 * at start and then once a day. The log itself is the context's (every feature records in it),
 * so `ctx` is the slice this feature reads, spelled out rather than a Pick of AppContext.
 */
export async function createActivityFeature(ctx: {
  activity: ActivityLog;
  log: FastifyBaseLogger;
}): Promise<Feature> {
  const prune = () =>
    ctx.activity
      .prune()
      .catch((error: unknown) => ctx.log.error({ err: error }, 'Activity log pruning failed'));
  await prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return {
    name: 'activity',
    adminRoutes: [{ plugin: activityRoutes(ctx) }],
    close: () => clearInterval(timer),
  };
}
