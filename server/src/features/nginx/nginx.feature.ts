import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { certificatesRoutes } from './certificates/certificates.routes';
import { CertificatesService } from './certificates/certificates.service';
import { nginxRoutes } from './nginx.routes';
import { NginxService } from './nginx.service';

/**
 * The web-server panel (`/api/system`): nginx's settings, status, restart and saved versions,
 * and the HTTPS certificate obtained and renewed for the coach's domain (certificates/).
 */
export async function createNginxFeature(ctx: AppContext): Promise<Feature> {
  const nginx = new NginxService(ctx.config);
  const certificates = new CertificatesService({
    settings: ctx.config.nginx,
    nginx,
    leases: ctx.leases,
    log: ctx.log,
  });
  certificates.start();
  return {
    name: 'nginx',
    systemRoutes: [{ plugin: nginxRoutes(nginx, ctx) }, { plugin: certificatesRoutes(certificates, ctx) }],
    close: () => certificates.stop(),
  };
}
