import {
  type AppServerConfigResponse,
  type AppServerRestartResponse,
  type AppServerSaveResponse,
  type AppServerStatusResponse,
  appServerConfigBody,
} from '@common/schemas/app-server';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { NodejsService } from './nodejs.service';

/** /api/admin/nodejs (SPEC section 7); the admin scope's hook has already checked the caller. */
export function nodejsRoutes(service: NodejsService) {
  return async (app: FastifyInstance) => {
    app.get(
      '/config',
      async () => ({ success: true, config: service.view() }) satisfies AppServerConfigResponse,
    );

    app.post('/config', async (request) => {
      const body = parseInput(appServerConfigBody, request.body);
      const { config, ignored } = await service.save(body);
      return {
        success: true,
        message: 'Node.js configuration saved! Restart the server for changes to take effect.',
        config,
        ignored,
      } satisfies AppServerSaveResponse;
    });

    app.get(
      '/status',
      async () => ({ success: true, status: service.status() }) satisfies AppServerStatusResponse,
    );

    app.post('/restart', async () => {
      const { port, previousPort } = await service.restart();
      return {
        success: true,
        message: 'Server restart initiated...',
        port,
        previousPort,
      } satisfies AppServerRestartResponse;
    });
  };
}
