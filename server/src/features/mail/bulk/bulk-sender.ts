import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { MailDelivery, MailIdentity } from '../../../mail/mailer';
import type { StoreLeases } from '../../shared-state/store-lease';
import type {
  AnnouncementDoc,
  AnnouncementsRepository,
  RecipientRecord,
} from '../announcements/announcements.repository';
import type { Recipient, Segments } from '../announcements/segments';
import type { MailSettingsRepository } from '../mail-settings.repository';
import { type PreferencesRepository, wants } from '../preferences/preferences.repository';
import type { UnsubscribeLinks } from '../preferences/unsubscribe-links';
import { bulkMessage } from './bulk-message';
import type { SharedPace } from './pace';
import { sendOne, warnRepeat } from './send-one';

/** Open SMTP connections of a bulk send (the transactional queue keeps its own). */
export const BULK_CONNECTIONS = 3;
/** How often each process looks for an announcement that is due. */
const TICK_MS = 1_000;
/** A holding of the sender's lease; work stops starting well within half of it (assertHeld). */
const LEASE_MS = 60_000;
const ROUND_MS = 20_000;
/** After a mail server problem (not a refusal of the address), the batch waits this long. */
const RETRY_AFTER_MS = 30_000;

export interface BulkSenderDeps {
  announcements: AnnouncementsRepository;
  preferences: PreferencesRepository;
  segments: Segments;
  settings: MailSettingsRepository;
  /** The one pace of all bulk mail (the digest's too), across processes. */
  pace: SharedPace;
  leases: StoreLeases;
  delivery: () => MailDelivery;
  links: UnsubscribeLinks;
  identity: () => Promise<MailIdentity>;
  siteName: () => Promise<string>;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** How long one holding of the lease sends before letting others have it (tests shorten it). */
  roundMs?: number;
}

type BatchOutcome = 'done' | 'stopped' | 'retry';

/**
 * Sends announcements in the background, in every server process, but only while holding the
 * store lease `mail-bulk`: one sender at a time across workers and machines. It reads the
 * segment a batch after the announcement's cursor, writes each recipient's record before handing
 * the message to the mail server and after, and moves the cursor once a batch is done. A process
 * killed mid-batch leaves records `sending`: the next holder sends those again with the same
 * Message-ID (at most one per open connection) and logs each; records `sent` are skipped.
 */
export class BulkSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  private readonly roundMs: number;

  constructor(private readonly deps: BulkSenderDeps) {
    this.roundMs = deps.roundMs ?? ROUND_MS;
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
  }

  /** Looks for work now (an announcement was just queued). */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.running ??= this.round()
      .catch((error) => this.deps.log.error({ err: error }, 'Mail to members could not be sent on'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.race([this.running, sleep(1_000)]);
  }

  private async round(): Promise<void> {
    const due = await this.deps.announcements.due(new Date());
    if (!due || (due.retryAt && due.retryAt > new Date())) return;
    try {
      await this.deps.leases.run(
        'mail-bulk',
        'Another server process is sending mail to members.',
        (held) => this.work(held),
        {
          ttlMs: LEASE_MS,
          waitMs: 0,
        },
      );
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNAVAILABLE')) throw error;
    }
  }

  private async work(held: { assertHeld(): void }): Promise<void> {
    const started = Date.now();
    while (!this.closed && Date.now() - started < this.roundMs) {
      let announcement = await this.deps.announcements.due(new Date());
      if (!announcement || (announcement.retryAt && announcement.retryAt > new Date())) return;
      if (announcement.state === 'scheduled') {
        announcement = await this.deps.announcements.advance(announcement, { state: 'sending' });
        if (!announcement) continue;
        this.deps.log.info(
          { announcementId: announcement._id },
          `Announcement sending: ${announcement.subject}`,
        );
      }
      const { perMinute } = await this.deps.settings.bulk();
      const size = Math.max(10, Math.min(500, Math.ceil(perMinute / 3)));
      const page = await this.deps.segments.page(announcement.segment, announcement.cursor, size);
      const outcome = await this.batch(announcement, page.recipients, perMinute, held, started);
      if (outcome === 'stopped') return;
      if (outcome === 'retry') {
        await this.deps.announcements.advance(announcement, {
          retryAt: new Date(Date.now() + RETRY_AFTER_MS),
        });
        return;
      }
      const finished = page.done ? { state: 'sent' as const, finishedAt: new Date() } : {};
      await this.deps.announcements.advance(announcement, { cursor: page.last, retryAt: null, ...finished });
      if (page.done)
        this.deps.log.info(
          { announcementId: announcement._id },
          `Announcement sent: ${announcement.subject}`,
        );
    }
  }

  private async batch(
    announcement: AnnouncementDoc,
    recipients: Recipient[],
    perMinute: number,
    held: { assertHeld(): void },
    started: number,
  ): Promise<BatchOutcome> {
    const { announcements, preferences } = this.deps;
    const ids = recipients.map((r) => r.userId);
    const [prefs, records] = await Promise.all([
      preferences.ofMany(ids),
      announcements.recordsOf(announcement._id, ids),
    ]);
    const todo: Array<{ recipient: Recipient; record: RecipientRecord | undefined }> = [];
    for (const recipient of recipients) {
      const record = records.get(recipient.userId);
      if (record && record.state !== 'sending' && record.state !== 'retry') continue;
      if (wants(prefs.get(recipient.userId), 'announcements')) todo.push({ recipient, record });
      else await announcements.record(announcement._id, recipient, 'unsubscribed', { attempts: 0 }, !record);
    }
    let retry = false;
    let stopped = false;
    // A chunk per round trip: as many as there are connections, noted `sending` in one write, then
    // handed over together. At most a chunk is in flight, so a crash repeats at most one per connection.
    for (let i = 0; i < todo.length; i += BULK_CONNECTIONS) {
      if (this.closed || retry || Date.now() - started > this.roundMs) {
        stopped = true;
        break;
      }
      try {
        held.assertHeld();
      } catch {
        stopped = true;
        break;
      }
      const chunk = todo.slice(i, i + BULK_CONNECTIONS).map(({ recipient, record }) => {
        if (record?.state === 'sending') warnRepeat(this.deps.log, announcement._id, recipient);
        return { recipient, attempts: (record?.attempts ?? 0) + 1, fresh: !record };
      });
      // The budget first: records are not left `sending` while the pace holds the chunk back.
      await this.deps.pace.wait(perMinute, chunk.length);
      await announcements.markSending(announcement._id, chunk);
      const outcomes = await Promise.all(
        chunk.map(({ recipient, attempts }) => this.deliver(announcement, recipient, attempts)),
      );
      if (outcomes.includes('retry')) retry = true;
    }
    return retry ? 'retry' : stopped ? 'stopped' : 'done';
  }

  private async deliver(announcement: AnnouncementDoc, recipient: Recipient, attempts: number) {
    const { from } = await this.deps.identity();
    const mail = bulkMessage(
      {
        subject: announcement.subject,
        markdown: announcement.markdown,
        html: announcement.html,
        kind: 'announcements',
      },
      recipient,
      { ...this.deps, from, siteName: await this.deps.siteName() },
    );
    return sendOne(
      this.deps,
      { id: announcement._id, createdAt: announcement.createdAt },
      recipient,
      mail,
      attempts,
    );
  }
}
