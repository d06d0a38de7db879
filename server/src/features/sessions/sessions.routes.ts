import { type EndUserSessionsResponse, userIdParam } from '@common/schemas/admin-users';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import type { ActivityLog } from '../activity/activity.service';
import type { UsersRepository } from '../users/users.repository';
import type { SessionsService } from './sessions.service';

/**
 * An administrator signs a user out of every browser and device (a lost phone, a shared
 * computer). Registered inside the /api/admin scope, whose hook has checked the administrator.
 * `ctx` is spelled out, not a Pick of AppContext: the context holds this feature's sessions.
 */
export function adminSessionsRoutes(ctx: {
  sessions: SessionsService;
  users: UsersRepository;
  activity: ActivityLog;
}) {
  const { sessions, users, activity } = ctx;
  return async (app: FastifyInstance) => {
    app.delete<{ Reply: EndUserSessionsResponse }>('/users/:id/sessions', async (request) => {
      const { id } = parseInput(userIdParam, request.params);
      const user = await users.findById(id);
      if (!user) throw new AppError('NOT_FOUND', 'User not found.');
      const ended = await sessions.endAll(id);
      await activity.record(request, {
        kind: 'sessions.ended',
        summary: `Signed ${user.email} out everywhere (${ended} session${ended === 1 ? '' : 's'})`,
      });
      return {
        success: true,
        ended,
        message: `Signed out everywhere: ${ended} session${ended === 1 ? '' : 's'} ended.`,
      };
    });
  };
}
