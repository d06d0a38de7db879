import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { mailRoutes } from './mail.routes';

/** `/api/admin/mail`: the console's view of the mail queue (the mailer itself is the context's). */
export async function createMailFeature(ctx: AppContext): Promise<Feature> {
  return { name: 'mail', adminRoutes: [{ prefix: '/mail', plugin: mailRoutes(ctx) }] };
}
