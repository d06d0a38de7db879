import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { healthRoutes } from './health.routes';

/** `/api/health`: whether this server process answers, and on which store. */
export async function createHealthFeature(ctx: AppContext): Promise<Feature> {
  return { name: 'health', routes: [{ prefix: '/api', plugin: healthRoutes(ctx) }] };
}
