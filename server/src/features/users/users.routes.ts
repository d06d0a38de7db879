import { Readable } from 'node:stream';
import {
  createUserBody,
  updateUserBody,
  userExportQuery,
  userIdParam,
  userListQuery,
} from '@common/schemas/admin-users';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { UsersService } from './users.service';
import { usersCsv } from './users-csv';

/**
 * The console's user management and overview. Registered inside the /api/admin scope, whose
 * one onRequest hook has already checked for a signed-in, active administrator.
 */
export function adminUsersRoutes(users: UsersService) {
  return async (app: FastifyInstance) => {
    app.get('/users', async (request) => {
      const page = await users.list(parseInput(userListQuery, request.query));
      return { success: true, ...page };
    });

    app.get('/users/export.csv', async (request, reply) => {
      const query = parseInput(userExportQuery, request.query);
      const list = users.listAll(query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="users-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(usersCsv(list)));
    });

    app.post('/users', async (request, reply) => {
      const user = await users.create(parseInput(createUserBody, request.body));
      return reply.code(201).send({ success: true, data: user });
    });

    app.put('/users/:id', async (request) => {
      const { id } = parseInput(userIdParam, request.params);
      const user = await users.update(id, parseInput(updateUserBody, request.body), {
        userId: request.user!._id,
        sessionId: request.sessionId!,
      });
      return { success: true, data: user };
    });

    app.delete('/users/:id', async (request) => {
      const { id } = parseInput(userIdParam, request.params);
      await users.delete(id);
      return { success: true, message: 'User deleted.' };
    });

    app.get('/stats', async () => ({ success: true, data: await users.stats() }));
  };
}
