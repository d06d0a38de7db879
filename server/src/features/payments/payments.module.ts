import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context';
import type { Mailer } from '../../mail/mailer';
import type { Config } from '../../settings/config';
import type { Store } from '../../store/store';
import type { ActivityLog } from '../activity/activity.service';
import type { Guards } from '../auth/auth.guard';
import type { StoreLeases } from '../shared-state/store-lease';
import type { UsersRepository } from '../users/users.repository';
import { MembershipTiers } from './membership-tier';
import { PaymentEventsRepository } from './payment-events.repository';
import { paymentsRoutes } from './payments.routes';
import { PaymentsService } from './payments.service';
import { paymentsAdminRoutes } from './payments-admin.routes';
import { PaymentsSettings, type ProviderFactory } from './payments-settings';
import { PaymentsWebhook } from './payments-webhook';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Stripe stops sending an event again after three days; its id is kept well past that. */
const KEEP_EVENTS_DAYS = 30;

export interface PaymentsDeps {
  config: Readonly<Config>;
  store: Store;
  users: UsersRepository;
  activity: ActivityLog;
  mailer: Mailer;
  leases: StoreLeases;
  log: FastifyBaseLogger;
  makeProvider?: ProviderFactory;
}

/** The payments feature, made once in buildApp: its parts, its routes, and the daily pruning of old event ids. */
export async function createPayments(deps: PaymentsDeps) {
  const events = new PaymentEventsRepository(deps.store);
  await events.init();
  const settings = new PaymentsSettings(deps, deps.makeProvider);
  const tiers = new MembershipTiers(deps.users, deps.activity);
  const service = new PaymentsService({
    settings,
    users: deps.users,
    publicUrl: deps.config.publicUrl,
    log: deps.log,
  });
  const webhook = new PaymentsWebhook({
    settings,
    events,
    users: deps.users,
    tiers,
    mailer: deps.mailer,
    log: deps.log,
    publicUrl: deps.config.publicUrl,
  });
  const prune = () =>
    events
      .deleteOlderThan(new Date(Date.now() - KEEP_EVENTS_DAYS * DAY_MS))
      .catch((error: unknown) => deps.log.error({ err: error }, 'Pruning handled payment events failed'));
  await prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return {
    tiers,
    settings,
    service,
    /** Under /api/payments. */
    routes: (guards: Guards) => paymentsRoutes(service, webhook, guards),
    /** Under /api/admin/payments, inside the admin scope. */
    adminRoutes: (ctx: Pick<AppContext, 'activity' | 'reauth'>) =>
      paymentsAdminRoutes(settings, service, ctx),
    close: () => clearInterval(timer),
  };
}
