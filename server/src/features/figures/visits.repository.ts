import { randomBytes } from 'node:crypto';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

/** Today's salt of the visitors' hashes: random, the same on every process, deleted the day after. */
interface SaltDoc extends StoredDoc {
  salt: string;
}

/** A visitor seen on a page on a day (`_id`: a hash of salt, day, page and visitor): counted once. */
interface SeenDoc extends StoredDoc {
  day: string;
}

/**
 * The only code of the visits' salts and the visitors seen. Neither holds an address: a visitor
 * is a hash of the day's salt, their address and browser, and the salt goes with its day, so
 * no one (this server included) can tell who a hash was afterwards.
 */
export class VisitsRepository {
  private readonly salts: Collection<SaltDoc>;
  private readonly seen: Collection<SeenDoc>;

  constructor(store: Store) {
    this.salts = store.collection<SaltDoc>('visit_salts');
    this.seen = store.collection<SeenDoc>('visit_seen');
  }

  async init(): Promise<void> {
    await this.seen.ensureIndex({ field: 'day' });
  }

  /** The day's salt, made by the first process to ask (the others read it). */
  async saltOf(day: string): Promise<string> {
    const kept = await this.salts.findById(day);
    if (kept) return kept.salt;
    try {
      await this.salts.insertMany([{ _id: day, salt: randomBytes(32).toString('hex') }]);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    return (await this.salts.findById(day))!.salt;
  }

  /** True the first time this visitor is seen on this page this day, on any process. */
  async firstSighting(id: string, day: string): Promise<boolean> {
    try {
      await this.seen.insertMany([{ _id: id, day }]);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Forgets the salts and sightings of days before `day`. */
  async forgetBefore(day: string): Promise<void> {
    for (const salt of await this.salts.find({ _id: { $lt: day } })) await this.salts.deleteById(salt._id);
    for (;;) {
      const old = await this.seen.find({ day: { $lt: day } }, { limit: 500 });
      if (old.length === 0) return;
      for (const doc of old) await this.seen.deleteById(doc._id);
    }
  }
}
