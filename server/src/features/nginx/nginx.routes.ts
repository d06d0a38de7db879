import type { NginxConfig } from '@common/nginx-defaults';
import type { RefusalWithError } from '@common/schemas/envelopes';
import type {
  NginxConfigResponse,
  NginxHistoryResponse,
  NginxRestartResponse,
  NginxSaveResponse,
  NginxStatusResponse,
} from '@common/schemas/nginx';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody } from '../../http/error-handler';
import { AppError } from '../../lib/app-error';
import { NginxFieldError, type NginxService, type SaveResult } from './nginx.service';

export const SAVED_MESSAGE = 'Nginx configuration saved successfully!';
export const RESTARTED_MESSAGE = 'Nginx restarted successfully!';

const savedBy = (request: FastifyRequest) => request.user?.email ?? 'unknown';

const saved = (result: SaveResult): NginxSaveResponse => ({
  success: true,
  message: SAVED_MESSAGE,
  data: result.config satisfies NginxConfig,
  ...(result.warning ? { warning: result.warning } : {}),
});

/**
 * How every /api/system route refuses: the panel reads `error` on a failed save or restart
 * (SPEC); a refused field is also named (`field`, and the proxy addresses at fault).
 */
export function refusalHandler(log: AppContext['log']) {
  return (error: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    if (!(error instanceof AppError)) throw error;
    if (error.status >= 500) log.error({ err: error }, error.message);
    const field = 'field' in error ? String(error.field) : undefined;
    return reply.code(error.status).send({
      ...errorBody(error.code, error.message),
      error: error.message,
      ...(field ? { field } : {}),
      ...(error instanceof NginxFieldError && error.targets ? { targets: error.targets } : {}),
    } satisfies RefusalWithError<{ field?: string; targets?: number[] }>);
  };
}

/**
 * /api/system: the web-server panel (config, status, save, restart, saved versions).
 * Registered inside the admin-only /api/system scope (app.ts).
 */
export function nginxRoutes(nginx: NginxService, ctx: Pick<AppContext, 'log' | 'reauth' | 'activity'>) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(refusalHandler(ctx.log));

    app.get<{ Reply: NginxConfigResponse }>('/config', async () => ({
      success: true,
      data: await nginx.config(),
    }));
    app.get<{ Reply: NginxStatusResponse }>('/status', () => nginx.status());

    // Every change here can take the site down: each needs the password confirmed recently.
    const confirmed = { preHandler: ctx.reauth.guard };

    // The sources disagree on which path the save uses, so both do the same.
    const save = async (request: FastifyRequest) => {
      const before = await nginx.config();
      const result = await nginx.save(request.body, savedBy(request));
      await ctx.activity.record(request, {
        kind: 'nginx.saved',
        summary: `Saved the nginx settings for ${result.config.serverName}`,
        before,
        after: result.config,
      });
      return saved(result);
    };
    app.post<{ Reply: NginxSaveResponse }>('/config', confirmed, save);
    app.post<{ Reply: NginxSaveResponse }>('/nginx/config', confirmed, save);

    app.post<{ Reply: NginxRestartResponse }>('/restart', confirmed, async (request) => {
      const action = await nginx.restart();
      await ctx.activity.record(request, {
        kind: 'nginx.restarted',
        summary: action === 'started' ? 'Started nginx' : 'Restarted nginx (graceful reload)',
      });
      return { success: true, action, message: RESTARTED_MESSAGE };
    });

    app.get<{ Reply: NginxHistoryResponse }>('/nginx/history', async () => ({
      success: true,
      data: await nginx.history(),
    }));
    app.post<{ Reply: NginxSaveResponse }>('/nginx/history/:id/restore', confirmed, async (request) => {
      const { id } = request.params as { id: string };
      if (!/^[0-9a-f]{12}$/.test(id))
        throw new AppError('NOT_FOUND', 'That saved version is no longer in the history.');
      const before = await nginx.config();
      const result = await nginx.restore(id, savedBy(request));
      await ctx.activity.record(request, {
        kind: 'nginx.restored',
        summary: `Restored the saved nginx version ${id}`,
        before,
        after: result.config,
      });
      return saved(result);
    });
  };
}
