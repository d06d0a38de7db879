import {
  type CollectionResponse,
  type ConnectionTestResponse,
  type DatabaseConfigResponse,
  type DatabaseDetailResponse,
  type DatabaseStatsResponse,
  type DatabaseStatusResponse,
  type DatabasesResponse,
  databaseConfigBody,
  explorerLimitQuery,
  type SaveConfigRefusal,
  type SaveConfigResponse,
} from '@common/schemas/database';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody } from '../../http/error-handler';
import { AppError } from '../../lib/app-error';
import type { RateCounters } from '../../lib/rate-limiter';
import { parseInput } from '../../lib/validate';
import type { DatabaseService } from './database.service';

/** Connection tests an administrator may run per minute. */
export const TESTS_PER_WINDOW = 10;
const TEST_WINDOW_MS = 60_000;

interface DatabaseParams {
  dbName?: string;
  name?: string;
}

/** The panel's save reads `error` from a refused answer; the usual fields stay beside it. */
function refuseSave(error: AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error.status >= 500) request.log.error({ err: error }, error.message);
  return reply.code(error.status).send({ ...errorBody(error.code, error.message), error: error.message });
}

/**
 * The console's database panel and explorer (SPEC "Database" calls). Registered inside the
 * /api/admin scope, whose one onRequest hook has already checked for an active administrator.
 * `tests` counts the connection tests of each administrator.
 */
export function databaseRoutes(
  database: DatabaseService,
  tests: RateCounters,
  ctx: Pick<AppContext, 'activity' | 'reauth'>,
) {
  return async (app: FastifyInstance) => {
    // Test Connection reaches any host and port: bounded per administrator so it is no port scanner.
    const limitTests = async (request: FastifyRequest) => {
      const wait = await tests.hit(request.user!._id, TESTS_PER_WINDOW, TEST_WINDOW_MS);
      if (wait > 0)
        throw new AppError('RATE_LIMITED', `Too many connection tests. Please try again in ${wait} seconds.`);
    };

    app.get<{ Reply: DatabaseConfigResponse }>('/config', () => database.getConfig());

    app.post<{ Reply: SaveConfigResponse | SaveConfigRefusal }>(
      '/config',
      {
        preHandler: ctx.reauth.guard,
        // The guard's refusal answers in the save's shape too. Refusals before it (the
        // administrators' hook, the body limit) keep the usual one: they go on to the app's handler.
        errorHandler: (error, request, reply) => {
          if (!(error instanceof AppError) || error.code !== 'REAUTH_REQUIRED') throw error;
          return refuseSave(error, request, reply);
        },
      },
      async (request, reply) => {
        try {
          const body = parseInput(databaseConfigBody, request.body);
          const before = (await database.getConfig()).config;
          const where = `MongoDB at ${body.host}:${body.port}/${body.database}`;
          // Written before the copy, so that the entry moves with the data (writes stop during the move).
          let recorded = false;
          const record = async () => {
            recorded = true;
            await ctx.activity.record(request, {
              kind: 'database.saved',
              summary: `Moved the site's data to ${where}`,
              before,
              after: body,
            });
          };
          try {
            return await database.saveConfig(body, request.user!, record);
          } catch (error) {
            // The move began and failed: the log says so next to the entry it already holds.
            if (recorded)
              await ctx.activity.record(request, {
                kind: 'database.saved',
                summary: `The move to ${where} failed: ${(error as Error).message}`,
              });
            throw error;
          }
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return refuseSave(error, request, reply);
        }
      },
    );

    app.get<{ Reply: DatabaseStatusResponse }>('/status', async () => ({
      success: true,
      ...(await database.status()),
    }));

    app.get<{ Reply: DatabasesResponse }>('/databases', async () => ({
      success: true,
      databases: await database.databases(),
    }));

    app.get<{ Params: DatabaseParams; Reply: DatabaseStatsResponse }>(
      '/database/:name/stats',
      async (request) => ({
        success: true,
        stats: await database.databaseStats(request.params.name ?? ''),
      }),
    );

    app.post<{ Reply: ConnectionTestResponse }>(
      '/test',
      { preHandler: [ctx.reauth.guard, limitTests] },
      (request) => database.testConnection(parseInput(databaseConfigBody, request.body)),
    );

    app.get<{ Params: DatabaseParams; Reply: DatabaseDetailResponse }>(
      '/database/:dbName/details',
      async (request) => ({
        success: true,
        database: await database.details(request.params.dbName ?? ''),
      }),
    );

    app.get<{ Params: DatabaseParams; Reply: CollectionResponse }>(
      '/database/:dbName/collection/:name',
      async (request) => {
        const { limit } = parseInput(explorerLimitQuery, request.query);
        const { dbName = '', name = '' } = request.params;
        return { success: true, collection: await database.collection(dbName, name, limit) };
      },
    );
  };
}
