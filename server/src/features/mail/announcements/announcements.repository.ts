import { createHash } from 'node:crypto';
import type { AnnouncementState, Segment } from '@common/schemas/mail-members';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../../store/store';

/**
 * An announcement: what the owner wrote, to whom, and how far its sending got. Its recipients
 * are never listed here: the sender reads them from the segment a batch at a time, after
 * `cursor` (the last id it finished), so queuing to a million members is one insert.
 */
export interface AnnouncementDoc extends StoredDoc {
  subject: string;
  markdown: string;
  html: string;
  segment: Segment;
  segmentLabel: string;
  state: AnnouncementState;
  scheduledAt: Date;
  /** Members in the segment when it was queued (counted just after; 0 until then). */
  recipients: number;
  /** The last recipient (a user's or a progress id, as the segment reads them) finished; null before the first. */
  cursor: string | null;
  /** After a mail server problem: the batch is tried again from here at this time. */
  retryAt: Date | null;
  finishedAt: Date | null;
  createdBy: string;
}

export type RecipientState = 'sending' | 'sent' | 'failed' | 'retry' | 'unsubscribed';

/**
 * One recipient of one announcement, written before the message is handed to the mail server
 * (`sending`) and after (`sent`, `failed`, `retry`). A `sending` record found later means the
 * process died in between: the message may have gone, and goes again with the same Message-ID.
 */
export interface RecipientRecord extends StoredDoc {
  announcementId: string;
  userId: string;
  email: string;
  state: RecipientState;
  /** `<announcement>:<state>`: counted by the store, so progress is a few kept counts. */
  tally: string;
  attempts: number;
  error?: string;
}

/** The only code that reads or writes announcements and their recipients' records. */
export class AnnouncementsRepository {
  private readonly announcements: Collection<AnnouncementDoc>;
  private readonly records: Collection<RecipientRecord>;

  constructor(store: Store) {
    this.announcements = store.collection<AnnouncementDoc>('mail_announcements');
    this.records = store.collection<RecipientRecord>('mail_recipients');
  }

  async init(): Promise<void> {
    await this.announcements.ensureIndex({ field: 'state' });
    await this.announcements.ensureIndex({ field: 'createdAt' });
    await this.records.ensureIndex({ field: 'tally', counted: true });
    await this.records.ensureIndex({ field: 'announcementId' });
  }

  create(doc: Omit<AnnouncementDoc, keyof StoredDoc>): Promise<AnnouncementDoc> {
    return this.announcements.insertOne(doc);
  }

  find(id: string): Promise<AnnouncementDoc | null> {
    return this.announcements.findById(id);
  }

  newest(limit: number): Promise<AnnouncementDoc[]> {
    return this.announcements.find({}, { sort: { createdAt: -1 }, limit });
  }

  /** The announcement to work on now: the earliest due one still going. */
  async due(now: Date): Promise<AnnouncementDoc | null> {
    const [first] = await this.announcements.find(
      { state: { $in: ['scheduled', 'sending'] }, scheduledAt: { $lte: now } },
      { sort: { scheduledAt: 1 }, limit: 5 },
    );
    return first ?? null;
  }

  /** Moves it on only from the state the caller read (compare-and-set): a cancel in between wins. */
  advance(
    doc: AnnouncementDoc,
    changes: Partial<Pick<AnnouncementDoc, 'state' | 'cursor' | 'retryAt' | 'finishedAt'>>,
  ): Promise<AnnouncementDoc | null> {
    return this.announcements.updateOne({ _id: doc._id, state: doc.state, cursor: doc.cursor }, changes);
  }

  /** The segment's size, counted after queuing (for the progress shown). */
  async setRecipients(id: string, recipients: number): Promise<void> {
    await this.announcements.updateById(id, { recipients });
  }

  cancel(id: string): Promise<AnnouncementDoc | null> {
    return this.announcements.updateOne(
      { _id: id, state: { $in: ['scheduled', 'sending'] } },
      { state: 'cancelled', finishedAt: new Date() },
    );
  }

  async recordsOf(announcementId: string, userIds: string[]): Promise<Map<string, RecipientRecord>> {
    if (userIds.length === 0) return new Map();
    const ids = userIds.map((userId) => recordId(announcementId, userId));
    const docs = await this.records.find({ _id: { $in: ids } });
    return new Map(docs.map((doc) => [doc.userId, doc]));
  }

  /**
   * Writes one recipient's record (made on its first write). `fresh`: the caller read none, so it
   * is inserted at once (one write, not a failed update then an insert).
   */
  async record(
    announcementId: string,
    recipient: { userId: string; email: string },
    state: RecipientState,
    fields: { attempts: number; error?: string },
    fresh = false,
  ): Promise<void> {
    const _id = recordId(announcementId, recipient.userId);
    const changes = { state, tally: `${announcementId}:${state}`, ...fields };
    if (fresh) {
      try {
        await this.records.insertMany([
          { _id, announcementId, userId: recipient.userId, email: recipient.email, ...changes },
        ]);
        return;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
    if (await this.records.updateById(_id, changes)) return;
    await this.records.insertMany([
      { _id, announcementId, userId: recipient.userId, email: recipient.email, ...changes },
    ]);
  }

  /**
   * Notes several recipients as `sending` in one write where it can (one insert for those with no
   * record yet): a chunk of as many as there are connections, about to be handed over together.
   */
  async markSending(
    announcementId: string,
    chunk: Array<{ recipient: { userId: string; email: string }; attempts: number; fresh: boolean }>,
  ): Promise<void> {
    const fresh = chunk.filter((entry) => entry.fresh);
    const state = 'sending' as const;
    try {
      if (fresh.length)
        await this.records.insertMany(
          fresh.map(({ recipient, attempts }) => ({
            _id: recordId(announcementId, recipient.userId),
            announcementId,
            userId: recipient.userId,
            email: recipient.email,
            state,
            tally: `${announcementId}:${state}`,
            attempts,
          })),
        );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      for (const { recipient, attempts } of fresh)
        await this.record(announcementId, recipient, state, { attempts });
    }
    for (const { recipient, attempts } of chunk.filter((entry) => !entry.fresh))
      await this.record(announcementId, recipient, state, { attempts });
  }

  async tallies(announcementId: string): Promise<Record<RecipientState, number>> {
    const states: RecipientState[] = ['sending', 'sent', 'failed', 'retry', 'unsubscribed'];
    const counts = await Promise.all(
      states.map((state) => this.records.count({ tally: `${announcementId}:${state}` })),
    );
    return Object.fromEntries(states.map((state, i) => [state, counts[i]!])) as Record<
      RecipientState,
      number
    >;
  }

  failures(announcementId: string, limit: number): Promise<RecipientRecord[]> {
    return this.records.find({ tally: `${announcementId}:failed` }, { sort: { updatedAt: -1 }, limit });
  }
}

/** The same on every process, so two senders of one recipient meet on one record. */
export function recordId(announcementId: string, userId: string): string {
  return createHash('sha256').update(`recipient:${announcementId}:${userId}`).digest('hex').slice(0, 24);
}
