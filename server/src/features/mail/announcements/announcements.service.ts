import type { AnnouncementInput, AnnouncementView, Draft, Segment } from '@common/schemas/mail-members';
import { AppError } from '../../../lib/app-error';
import type { Mailer, MailIdentity } from '../../../mail/mailer';
import { renderMarkdown } from '../../courses/markdown';
import { bulkMessage } from '../bulk/bulk-message';
import type { UnsubscribeLinks } from '../preferences/unsubscribe-links';
import type { AnnouncementDoc, AnnouncementsRepository } from './announcements.repository';
import type { Segments } from './segments';

/** A time to send a few seconds old is "now" (the owner's clock, the request's trip); older is refused. */
const PAST_SLACK_MS = 60_000;
/** How long after queuing the segment is counted for the progress shown. */
const COUNT_AFTER_MS = 100;

/**
 * Announcements: written by the owner in Markdown (rendered by the lessons' sanitising renderer),
 * previewed, tried on the owner's own address, counted, then queued: one document, whatever
 * the segment's size (the sender reads the recipients as it goes, bulk/bulk-sender.ts).
 */
export class AnnouncementsService {
  constructor(
    private readonly repository: AnnouncementsRepository,
    private readonly segments: Segments,
    private readonly mailer: Mailer,
    private readonly env: {
      identity: () => Promise<MailIdentity>;
      siteName: () => Promise<string>;
      publicUrl: string;
      links: UnsubscribeLinks;
    },
    private readonly queued: () => void,
  ) {}

  async preview(draft: Draft): Promise<{ subject: string; html: string }> {
    return { subject: draft.subject, html: await renderMarkdown(draft.markdown) };
  }

  /** The draft as a member would get it, to the owner's own address (with their own unsubscribe link). */
  async sendTest(draft: Draft, owner: { _id: string; email: string }): Promise<void> {
    const mail = bulkMessage(
      {
        subject: `[Test] ${draft.subject}`,
        markdown: draft.markdown,
        html: await renderMarkdown(draft.markdown),
        kind: 'announcements',
      },
      { userId: owner._id, email: owner.email },
      { ...this.env, from: (await this.env.identity()).from, siteName: await this.env.siteName() },
    );
    await this.mailer.send({ ...mail });
  }

  async count(segment: Segment): Promise<{ recipients: number; label: string }> {
    const label = await this.segments.label(segment);
    return { recipients: await this.segments.count(segment), label };
  }

  async create(input: AnnouncementInput, ownerId: string, now = new Date()): Promise<AnnouncementView> {
    const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : now;
    if (scheduledAt.getTime() < now.getTime() - PAST_SLACK_MS)
      throw new AppError('VALIDATION', 'That time has passed: choose a time to come, or send now.');
    // The segment is checked (a course that is gone is refused) but not counted here: on a
    // million members a count takes seconds, and the owner saw it already. It is filled in after.
    const label = await this.segments.label(input.segment);
    const doc = await this.repository.create({
      subject: input.subject,
      markdown: input.markdown,
      html: await renderMarkdown(input.markdown),
      segment: input.segment,
      segmentLabel: label,
      state: 'scheduled',
      scheduledAt,
      recipients: 0,
      cursor: null,
      retryAt: null,
      finishedAt: null,
      createdBy: ownerId,
    });
    this.queued();
    const view = await this.view(doc);
    // Counted a moment after the answer has left: the count's reads would otherwise come first.
    setTimeout(() => {
      void this.segments
        .count(input.segment)
        .then((recipients) => this.repository.setRecipients(doc._id, recipients))
        .catch(() => undefined);
    }, COUNT_AFTER_MS).unref();
    return view;
  }

  async list(): Promise<AnnouncementView[]> {
    return Promise.all((await this.repository.newest(50)).map((doc) => this.view(doc)));
  }

  async get(id: string): Promise<AnnouncementView> {
    const doc = await this.repository.find(id);
    if (!doc) throw new AppError('NOT_FOUND', 'That announcement does not exist.');
    return this.view(doc);
  }

  async cancel(id: string): Promise<AnnouncementView> {
    const doc = await this.repository.cancel(id);
    if (!doc) throw new AppError('CONFLICT', 'That announcement is no longer waiting or sending.');
    return this.view(doc);
  }

  private async view(doc: AnnouncementDoc): Promise<AnnouncementView> {
    const [tallies, failures] = await Promise.all([
      this.repository.tallies(doc._id),
      this.repository.failures(doc._id, 20),
    ]);
    // `recipients` leaves out who takes no announcements: their records (unsubscribed) are not "to go".
    const done = tallies.sent + tallies.failed;
    return {
      id: doc._id,
      subject: doc.subject,
      segment: doc.segment,
      segmentLabel: doc.segmentLabel,
      state: doc.state,
      scheduledAt: doc.scheduledAt.toISOString(),
      createdAt: doc.createdAt.toISOString(),
      finishedAt: doc.finishedAt?.toISOString() ?? null,
      recipients: doc.recipients,
      sent: tallies.sent,
      failed: tallies.failed,
      unsubscribed: tallies.unsubscribed,
      queued: doc.state === 'sent' || doc.state === 'cancelled' ? 0 : Math.max(0, doc.recipients - done),
      failures: failures.map((failure) => ({
        to: failure.email,
        error: failure.error ?? 'Not delivered.',
        at: failure.updatedAt.toISOString(),
      })),
    };
  }
}
