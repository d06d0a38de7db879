import { AnnouncementsRepository } from '../features/mail/announcements/announcements.repository';
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
