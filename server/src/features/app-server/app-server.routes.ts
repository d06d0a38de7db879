import {
  type AppServerConfigResponse,
  type AppServerRestartResponse,
  type AppServerSaveResponse,
  type AppServerStatusResponse,
  appServerConfigBody,
} from '@common/schemas/app-server';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { AppServerService } from './app-server.service';

/** /api/admin/nodejs: config, status and restart; the admin scope's hook has already checked the caller. */
export function appServerRoutes(service: AppServerService, ctx: Pick<AppContext, 'activity' | 'reauth'>) {
  return async (app: FastifyInstance) => {
    // Saving (session secret, limits) and restarting can take the site: the password is asked again.
    const confirmed = { preHandler: ctx.reauth.guard };

    app.get<{ Reply: AppServerConfigResponse }>('/config', async () => ({
      success: true,
      config: service.view(),
    }));

    app.post<{ Reply: AppServerSaveResponse }>('/config', confirmed, async (request) => {
      const body = parseInput(appServerConfigBody, request.body);
      const before = service.view();
      const { config, ignored } = await service.save(body);
      const secretChanged = Boolean(body.sessionSecret) && !ignored.includes('sessionSecret');
      await ctx.activity.record(request, {
        kind: 'nodejs.saved',
        summary: `Saved the Node.js settings${secretChanged ? ' (new session secret)' : ''}`,
        before,
        after: config,
      });
      return {
        success: true,
        message: 'Node.js configuration saved! Restart the server for changes to take effect.',
        config,
        ignored,
      };
    });

    app.get<{ Reply: AppServerStatusResponse }>('/status', async () => ({
      success: true,
      status: await service.status(),
    }));

    app.post<{ Reply: AppServerRestartResponse }>('/restart', confirmed, async (request) => {
      const { port, previousPort } = await service.restart();
      await ctx.activity.record(request, {
        kind: 'nodejs.restarted',
        summary: port === previousPort ? 'Restarted the server' : `Restarted the server on port ${port}`,
      });
      return {
        success: true,
        message: 'Server restart initiated...',
        port,
        previousPort,
      };
    });
  };
}
