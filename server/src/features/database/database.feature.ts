import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { SharedRateCounters } from '../../lib/rate-limiter';
import { databaseRoutes } from './database.routes';
import { DatabaseService } from './database.service';
import { mongoTargets, type TargetConnector } from './mongo-target';

export type { TargetConnector } from './mongo-target';

/**
 * The console's database panel, explorer and the move to MongoDB (`/api/admin/mongodb`).
 * `targets` is how it reaches other MongoDB servers: the real driver unless a caller gives a stand-in.
 */
export async function createDatabaseFeature(
  ctx: AppContext,
  needs: { targets?: TargetConnector } = {},
): Promise<Feature> {
  const database = new DatabaseService({
    store: ctx.store,
    dataDir: ctx.config.dataDir,
    environmentUri: ctx.config.mongodbUri,
    targets: needs.targets ?? mongoTargets,
    requestRestart: () => ctx.requestRestart(),
    log: ctx.log,
  });
  // Bounded per administrator, on every process alike: a connection test reaches any host and port.
  const tests = new SharedRateCounters(ctx.store.counters, 'database-tests:');
  return {
    name: 'database',
    adminRoutes: [{ prefix: '/mongodb', plugin: databaseRoutes(database, tests, ctx) }],
  };
}
