import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import type { LiveSettings } from '../../http/live-settings';
import type { SiteProcesses } from '../../process/protocol';
import { appServerRoutes } from './app-server.routes';
import { AppServerService } from './app-server.service';

/**
 * The console's Node.js panel (`/api/admin/nodejs`): settings, live status, restart. `live` are
 * the settings buildApp's hooks read on every request; `siteProcesses` gives every worker's
 * figures under `npm start`'s supervisor.
 */
export async function createAppServerFeature(
  ctx: AppContext,
  needs: { live: LiveSettings; siteProcesses?: () => Promise<SiteProcesses | null> },
): Promise<Feature> {
  const service = new AppServerService(ctx, needs.live, needs.siteProcesses);
  return { name: 'app-server', adminRoutes: [{ prefix: '/nodejs', plugin: appServerRoutes(service, ctx) }] };
}
