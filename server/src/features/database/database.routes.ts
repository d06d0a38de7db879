import { databaseConfigBody, explorerLimitQuery } from '@common/schemas/database';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../http/error-handler';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import type { DatabaseService } from './database.service';

interface DatabaseParams {
  dbName?: string;
  name?: string;
}

/**
 * The console's database panel and explorer (SPEC "Database" calls). Registered inside the
 * /api/admin scope, whose one onRequest hook has already checked for an active administrator.
 */
export function databaseRoutes(database: DatabaseService) {
  return async (app: FastifyInstance) => {
    app.get('/config', () => database.getConfig());

    app.post('/config', async (request, reply) => {
      try {
        return await database.saveConfig(parseInput(databaseConfigBody, request.body), request.user!);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.status >= 500) request.log.error({ err: error }, error.message);
        // SPEC section 7 reads `error` from this call's answer; the usual fields stay beside it.
        return reply
          .code(error.status)
          .send({ ...errorBody(error.code, error.message), error: error.message });
      }
    });

    app.get('/status', async () => ({ success: true, ...(await database.status()) }));

    app.get('/databases', async () => ({ success: true, databases: await database.databases() }));

    app.get<{ Params: DatabaseParams }>('/database/:name/stats', async (request) => ({
      success: true,
      stats: await database.databaseStats(request.params.name ?? ''),
    }));

    app.post('/test', (request) => database.testConnection(parseInput(databaseConfigBody, request.body)));

    app.get<{ Params: DatabaseParams }>('/database/:dbName/details', async (request) => ({
      success: true,
      database: await database.details(request.params.dbName ?? ''),
    }));

    app.get<{ Params: DatabaseParams }>('/database/:dbName/collection/:name', async (request) => {
      const { limit } = parseInput(explorerLimitQuery, request.query);
      const { dbName = '', name = '' } = request.params;
      return { success: true, collection: await database.collection(dbName, name, limit) };
    });
  };
}
