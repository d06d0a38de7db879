import { CoursesRepository } from '../features/courses/courses.repository';
import { ProgressRepository } from '../features/courses/progress/progress.repository';
import { AnnouncementsRepository } from '../features/mail/announcements/announcements.repository';
import { Segments } from '../features/mail/announcements/segments';
import type { BulkSenderDeps } from '../features/mail/bulk/bulk-sender';
import { SharedPace } from '../features/mail/bulk/pace';
import { MailSettingsRepository } from '../features/mail/mail-settings.repository';
import { PreferencesRepository } from '../features/mail/preferences/preferences.repository';
import { UnsubscribeLinks } from '../features/mail/preferences/unsubscribe-links';
import { StoreLeases } from '../features/shared-state/store-lease';
import { UsersRepository } from '../features/users/users.repository';
import type { MailDelivery } from '../mail/mail-delivery';
import type { Store } from '../store/store';

/**
 * An announcement to every member, due now, written straight into the store as the console's
 * Send would leave it: what the sender tests hand their senders.
 */
export function announceToEveryone(store: Store, subject: string, recipients: number) {
  return new AnnouncementsRepository(store).create({
    subject,
    markdown: 'Hi',
    html: '<p>Hi</p>',
    segment: { kind: 'everyone' },
    segmentLabel: 'Every member',
    state: 'scheduled',
    scheduledAt: new Date(),
    recipients,
    cursor: null,
    retryAt: null,
    finishedAt: null,
    createdBy: 'a'.repeat(24),
  });
}

/** A logger that says nothing, for senders built in tests. */
export const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

/**
 * A bulk sender's parts on `store`, as the mail feature wires them, handing each message to
 * `delivery`: each call makes its own pace object and lease holder, as another process would.
 */
export function bulkSenderDeps(store: Store, delivery: MailDelivery): BulkSenderDeps {
  const preferences = new PreferencesRepository(store);
  return {
    announcements: new AnnouncementsRepository(store),
    preferences,
    segments: new Segments(
      new UsersRepository(store),
      new CoursesRepository(store),
      new ProgressRepository(store),
      preferences,
    ),
    settings: new MailSettingsRepository(store),
    pace: new SharedPace(store.counters),
    leases: new StoreLeases(store),
    delivery: () => delivery,
    links: new UnsubscribeLinks(new Uint8Array(32), 'https://members.example.com'),
    identity: async () => ({ from: 'site@members.example.com' }),
    siteName: async () => 'Members',
    publicUrl: 'https://members.example.com',
    log: silentLog,
  };
}
