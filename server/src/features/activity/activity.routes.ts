import { Readable } from 'node:stream';
import {
  type ActivityCsvResponse,
  type ActivityListResponse,
  activityExportQuery,
  activityListQuery,
} from '@common/schemas/activity';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { ActivityLog } from './activity.service';
import { activityCsv } from './activity-csv';

/**
 * /api/admin/activity: read-only. There is deliberately no route that edits or deletes an entry;
 * only the retention period removes them. Registered inside the admin-only scope. `ctx` is
 * spelled out, not a Pick of AppContext: the context holds this feature's log, so naming it here
 * would tie the two both ways.
 */
export function activityRoutes(ctx: { activity: ActivityLog }) {
  const { activity } = ctx;
  return async (app: FastifyInstance) => {
    app.get<{ Reply: ActivityListResponse }>('/activity', async (request) => ({
      success: true,
      ...(await activity.list(parseInput(activityListQuery, request.query))),
    }));

    app.get<{ Reply: ActivityCsvResponse }>('/activity/export.csv', async (request, reply) => {
      const entries = await activity.all(parseInput(activityExportQuery, request.query));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="activity-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(activityCsv(entries)));
    });
  };
}
