import type { CoursePrice } from '@common/schemas/course-views';
import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { CoursesRepository } from '../courses/courses.repository';
import { CoursePurchases } from './course-purchases';
import { CourseSales } from './course-sales';
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

/** What the payments feature hands the features built after it. */
export interface PaymentsFeature extends Feature {
  /** The one function that changes a member's tier (User Management's edits go through it). */
  tiers: MembershipTiers;
  /** Checkout, portal, plans; `cancelForDeletion` ends a subscription before its account goes. */
  service: PaymentsService;
  /** A course's price while it is sold on its own (amount and currency only), for its public page. */
  coursePrice: (courseId: string) => Promise<CoursePrice | null>;
}

/**
 * Paid membership through Stripe: `/api/payments` (plans, checkout, portal, the webhook) and
 * `/api/admin/payments` (the console's Payments section), and the daily pruning of old event ids.
 * `makeProvider` stands in for Stripe's client where a caller gives one.
 */
export async function createPaymentsFeature(
  ctx: AppContext,
  needs: { makeProvider?: ProviderFactory } = {},
): Promise<PaymentsFeature> {
  const events = new PaymentEventsRepository(ctx.store);
  await events.init();
  const settings = new PaymentsSettings(ctx, needs.makeProvider);
  const tiers = new MembershipTiers(ctx.users, ctx.activity);
  // Only read here (a course's title and whether it is published); the courses feature owns them.
  const courses = new CoursesRepository(ctx.store);
  const sales = new CourseSales({
    settings,
    users: ctx.users,
    courses,
    activity: ctx.activity,
    changes: ctx.changes,
    publicUrl: ctx.config.publicUrl,
    log: ctx.log,
  });
  const purchases = new CoursePurchases({ users: ctx.users, courses, activity: ctx.activity, log: ctx.log });
  const service = new PaymentsService({
    settings,
    events,
    users: ctx.users,
    publicUrl: ctx.config.publicUrl,
    log: ctx.log,
  });
  const webhook = new PaymentsWebhook({
    settings,
    purchases,
    events,
    users: ctx.users,
    tiers,
    mailer: ctx.mailer,
    siteName: () => ctx.site.name(),
    log: ctx.log,
    publicUrl: ctx.config.publicUrl,
  });
  const prune = () =>
    events
      .deleteOlderThan(new Date(Date.now() - KEEP_EVENTS_DAYS * DAY_MS))
      .catch((error: unknown) => ctx.log.error({ err: error }, 'Pruning handled payment events failed'));
  await prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return {
    name: 'payments',
    routes: [{ prefix: '/api/payments', plugin: paymentsRoutes(service, sales, webhook, ctx) }],
    adminRoutes: [{ prefix: '/payments', plugin: paymentsAdminRoutes(settings, service, sales, ctx) }],
    close: () => clearInterval(timer),
    tiers,
    service,
    coursePrice: (courseId) => sales.coursePrice(courseId),
  };
}
