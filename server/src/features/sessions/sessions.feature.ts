import type { Feature } from '../../feature';
import type { ActivityLog } from '../activity/activity.service';
import type { UsersRepository } from '../users/users.repository';
import { adminSessionsRoutes } from './sessions.routes';
import type { SessionsService } from './sessions.service';

/**
 * An administrator ends a user's sessions (`/api/admin/users/:id/sessions`). The sessions
 * themselves are the context's (every guard checks them), so `ctx` is the slice this feature
 * reads, spelled out rather than a Pick of AppContext.
 */
export async function createSessionsFeature(ctx: {
  sessions: SessionsService;
  users: UsersRepository;
  activity: ActivityLog;
}): Promise<Feature> {
  return { name: 'sessions', adminRoutes: [{ plugin: adminSessionsRoutes(ctx) }] };
}
