import {
  BULK_KINDS,
  type BulkKind,
  type MailPreferences,
  type StopReason,
} from '@common/schemas/mail-members';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../../store/store';

/**
 * A member's mail preferences, and why bulk mail to them stopped. One document per member, its
 * id the member's; no document means the defaults (every kind wanted, nothing stopped), so a
 * million members who never chose cost nothing.
 */
export interface PreferencesDoc extends StoredDoc {
  announcements: boolean;
  lessons: boolean;
  /** Set when bulk mail to the address stopped: a hard bounce, or the owner marked a complaint. */
  stopReason?: StopReason;
  stopDetail?: string;
  stopAt?: Date;
  /** The address it stopped for (shown in the console). */
  stopEmail?: string;
}

const STOP_REASONS: StopReason[] = ['bounce', 'complaint'];

export const DEFAULT_PREFERENCES: MailPreferences = { announcements: true, lessons: true };

/** The only code that reads or writes mail preferences. */
export class PreferencesRepository {
  private readonly docs: Collection<PreferencesDoc>;

  constructor(store: Store) {
    this.docs = store.collection<PreferencesDoc>('mail_preferences');
  }

  async init(): Promise<void> {
    await this.docs.ensureIndex({ field: 'stopReason', sparse: true });
    // The few who turned a kind off, found without reading those who kept it on (a segment's count).
    for (const kind of BULK_KINDS) await this.docs.ensureIndex({ field: kind });
  }

  async of(userId: string): Promise<MailPreferences> {
    const doc = await this.docs.findById(userId);
    return doc ? { announcements: doc.announcements, lessons: doc.lessons } : { ...DEFAULT_PREFERENCES };
  }

  /** The documents of some members (a batch of recipients); those absent have the defaults. */
  async ofMany(userIds: string[]): Promise<Map<string, PreferencesDoc>> {
    if (userIds.length === 0) return new Map();
    const docs = await this.docs.find({ _id: { $in: userIds } });
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  async save(userId: string, changes: Partial<Omit<PreferencesDoc, keyof StoredDoc>>): Promise<void> {
    if (await this.docs.updateById(userId, changes)) return;
    try {
      await this.docs.insertMany([{ _id: userId, ...DEFAULT_PREFERENCES, ...changes }]);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.docs.updateById(userId, changes);
    }
  }

  turnOff(userId: string, kind: BulkKind): Promise<void> {
    return this.save(userId, { [kind]: false });
  }

  /**
   * The members who take no mail of this kind (they turned it off, or their address stopped), a
   * batch of ids at a time: found on the kinds' and the stop's indexes, never a read of everyone.
   */
  async *unwilling(kind: BulkKind, batchSize: number): AsyncGenerator<string[]> {
    const filter = { $or: [{ [kind]: false }, { stopReason: { $in: STOP_REASONS } }] };
    for await (const docs of this.docs.findInBatches(filter, { batchSize })) yield docs.map((doc) => doc._id);
  }

  stopped(limit: number): Promise<PreferencesDoc[]> {
    return this.docs.find({ stopReason: { $in: STOP_REASONS } }, { limit });
  }
}

/** Whether a member takes this kind of bulk mail (their choice, and no stop). */
export function wants(doc: PreferencesDoc | undefined, kind: BulkKind): boolean {
  if (!doc) return true;
  return !doc.stopReason && doc[kind];
}
