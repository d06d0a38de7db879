import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { createBulkDelivery, type MailDelivery } from '../../mail/mailer';
import { CoursesRepository } from '../courses/courses.repository';
import { ProgressRepository } from '../courses/progress/progress.repository';
import type { MembershipTiers } from '../payments/membership-tier';
import { AnnouncementsRepository } from './announcements/announcements.repository';
import { announcementsRoutes } from './announcements/announcements.routes';
import { AnnouncementsService } from './announcements/announcements.service';
import { Segments } from './announcements/segments';
import { BULK_CONNECTIONS, BulkSender } from './bulk/bulk-sender';
import { SharedPace } from './bulk/pace';
import { DigestRunner } from './digest/digest-runner';
import { identityRoutes } from './identity/identity.routes';
import { IdentityService } from './identity/identity.service';
import { mailRoutes } from './mail.routes';
import { MailSettingsRepository } from './mail-settings.repository';
import { PreferencesRepository } from './preferences/preferences.repository';
import { preferencesRoutes } from './preferences/preferences.routes';
import { PreferencesService } from './preferences/preferences.service';
import { stopsRoutes } from './preferences/stops.routes';
import { UnsubscribeLinks } from './preferences/unsubscribe-links';
import { welcomeRoutes } from './welcome/welcome.routes';
import { WelcomeService } from './welcome/welcome.service';

/**
 * Mail: `/api/admin/mail` (the console's view of the mail queue, announcements, the stopped
 * addresses, the sending settings), `/api/mail` (members' preferences and the unsubscribe
 * address), and the background sender of mail to members. The mailer itself is the context's.
 */
export async function createMailFeature(
  ctx: AppContext,
  needs: { tiers: Pick<MembershipTiers, 'whenPaid'> },
): Promise<Feature> {
  const announcementsRepository = new AnnouncementsRepository(ctx.store);
  const preferencesRepository = new PreferencesRepository(ctx.store);
  const settings = new MailSettingsRepository(ctx.store);
  await Promise.all([announcementsRepository.init(), preferencesRepository.init(), settings.init()]);
  const courses = new CoursesRepository(ctx.store);
  const progress = new ProgressRepository(ctx.store);
  const segments = new Segments(ctx.users, courses, progress, preferencesRepository);
  // The bulk transport opens with the first bulk mail this process sends, not at start.
  let delivery: MailDelivery | undefined;
  const bulkDelivery = () => {
    delivery ??= createBulkDelivery(
      { smtpUrl: ctx.config.smtpUrl, dataDir: ctx.config.dataDir, log: ctx.log },
      BULK_CONNECTIONS,
    );
    return delivery;
  };
  const links = new UnsubscribeLinks(ctx.tokenKey, ctx.config.publicUrl);
  const identity = new IdentityService(ctx.store, ctx.config);
  ctx.mailer.signWith(() => identity.current());
  const siteName = () => ctx.site.name();
  const env = { identity: () => identity.current(), siteName, publicUrl: ctx.config.publicUrl, links };
  // Announcements and the digest go out at one pace, the owner's, together.
  const pace = new SharedPace(ctx.store.counters);
  ctx.mailer.watchSending(pace.transactional);
  const sender = new BulkSender({
    announcements: announcementsRepository,
    preferences: preferencesRepository,
    segments,
    settings,
    pace,
    leases: ctx.leases,
    delivery: bulkDelivery,
    log: ctx.log,
    ...env,
  });
  sender.start();
  const digest = new DigestRunner({
    store: ctx.store,
    users: ctx.users,
    courses,
    progress,
    announcements: announcementsRepository,
    preferences: preferencesRepository,
    settings,
    pace,
    leases: ctx.leases,
    delivery: bulkDelivery,
    log: ctx.log,
    ...env,
  });
  digest.start();
  const announcements = new AnnouncementsService(announcementsRepository, segments, ctx.mailer, env, () => {
    void sender.kick();
  });
  const preferences = new PreferencesService(preferencesRepository, ctx.users, links);
  const welcome = new WelcomeService(settings, ctx.mailer, ctx.config.publicUrl, siteName, ctx.log);
  // A new account (a sign-up, the console's Add user) is welcomed; a bulk insert tells no one.
  ctx.users.watch({
    changed: async (before, after) => (before || !after ? undefined : welcome.joined(after)),
  });
  needs.tiers.whenPaid((user) => welcome.becamePaid(user));
  return {
    name: 'mail',
    routes: [{ prefix: '/api/mail', plugin: preferencesRoutes(preferences, ctx) }],
    adminRoutes: [
      { prefix: '/mail', plugin: mailRoutes(settings, ctx) },
      { prefix: '/mail/announcements', plugin: announcementsRoutes(announcements, ctx) },
      { prefix: '/mail/stops', plugin: stopsRoutes(preferences, ctx) },
      { prefix: '/mail/welcome', plugin: welcomeRoutes(welcome, ctx) },
      { prefix: '/mail/identity', plugin: identityRoutes(identity, ctx) },
    ],
    close: async () => {
      await Promise.all([sender.close(), digest.close(), welcome.settle()]);
      delivery?.close();
    },
  };
}
