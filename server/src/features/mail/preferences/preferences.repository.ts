import type { BulkKind, MailPreferences, StopReason } from '@common/schemas/mail-members';
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

export const DEFAULT_PREFERENCES: MailPreferences = { announcements: true, lessons: true };

/** The only code that reads or writes mail preferences. */
export class PreferencesRepository {
  private readonly docs: Collection<PreferencesDoc>;

  constructor(store: Store) {
    this.docs = store.collection<PreferencesDoc>('mail_preferences');
  }

  async init(): Promise<void> {
    await this.docs.ensureIndex({ field: 'stopReason', sparse: true });
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

  stopped(limit: number): Promise<PreferencesDoc[]> {
    return this.docs.find({ stopReason: { $in: ['bounce', 'complaint'] } }, { limit });
  }
}

/** Whether a member takes this kind of bulk mail (their choice, and no stop). */
export function wants(doc: PreferencesDoc | undefined, kind: BulkKind): boolean {
  if (!doc) return true;
  return !doc.stopReason && doc[kind];
}
