import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { nginxRoutes } from './nginx.routes';
import { NginxService } from './nginx.service';

/** The web-server panel (`/api/system`): nginx's settings, status, restart and saved versions. */
export async function createNginxFeature(ctx: AppContext): Promise<Feature> {
  return { name: 'nginx', systemRoutes: [{ plugin: nginxRoutes(new NginxService(ctx.config), ctx) }] };
}
