import { createHash } from 'node:crypto';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

export interface PaymentEventDoc extends StoredDoc {
  /** The provider's id of the event; unique, so that one insert is the claim. */
  eventId: string;
  type: string;
  /** 'failed': handling failed (the provider could not be asked); the next delivery takes it over. */
  state: 'working' | 'done' | 'failed';
  claimedAt: Date;
  /** Why handling failed, in plain words, for the console (while the event is not applied). */
  reason?: string;
}

/** 'claimed': handle it now. 'done': handled before, acknowledge it. 'busy': another process is on it. */
export type Claim = 'claimed' | 'done' | 'busy';

/**
 * The document's id, made from the event's: ids are unique on both stores whatever other indexes
 * hold, so the first insert of an event is the claim on every store (the id's form, 24 hex
 * digits, is that of any other id).
 */
const docId = (eventId: string) =>
  createHash('sha256').update(`payment-event:${eventId}`).digest('hex').slice(0, 24);

/**
 * The payment provider's events the site has handled (`payment_events`). Providers send an event
 * more than once, and sometimes twice at the same moment to two server processes: the first
 * insert of its id wins, every later delivery is acknowledged without doing anything again.
 */
export class PaymentEventsRepository {
  private readonly events: Collection<PaymentEventDoc>;

  constructor(store: Store) {
    this.events = store.collection<PaymentEventDoc>('payment_events');
  }

  async init(): Promise<void> {
    await this.events.ensureIndex({ field: 'eventId', unique: true });
    await this.events.ensureIndex({ field: 'createdAt' });
  }

  /**
   * Claims an event for this process. A claim left 'working' for longer than `staleMs` belongs to a
   * process that died mid-way: it is taken over (compare-and-set on its time), so the event is not lost.
   */
  async claim(eventId: string, type: string, staleMs: number, now = new Date()): Promise<Claim> {
    const id = docId(eventId);
    try {
      await this.events.insertMany([{ _id: id, eventId, type, state: 'working', claimedAt: now }]);
      return 'claimed';
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.events.findById(id);
    if (!existing) return 'busy';
    if (existing.state === 'done') return 'done';
    if (existing.state === 'working' && now.getTime() - existing.claimedAt.getTime() < staleMs) return 'busy';
    const taken = await this.events.updateOne(
      { _id: id, state: existing.state, claimedAt: existing.claimedAt },
      { state: 'working', claimedAt: now },
    );
    return taken ? 'claimed' : 'busy';
  }

  async finish(eventId: string): Promise<void> {
    await this.events.updateById(docId(eventId), { state: 'done', reason: undefined });
  }

  /**
   * Handling failed for a reason that may pass (the provider unreachable, a key lacking a
   * permission): kept as 'failed' with the reason, so the console shows payments received but not
   * applied until a later delivery applies it; that delivery claims it again.
   */
  async fail(eventId: string, reason: string): Promise<void> {
    await this.events.updateOne({ _id: docId(eventId), state: 'working' }, { state: 'failed', reason });
  }

  /** The events received but not applied, most recent first. */
  async failed(limit = 20): Promise<PaymentEventDoc[]> {
    return this.events.find({ state: 'failed' }, { sort: { claimedAt: -1, _id: -1 }, limit });
  }

  /** Handling failed: the provider's next delivery of the event is handled afresh. */
  async release(eventId: string): Promise<void> {
    const existing = await this.events.findById(docId(eventId));
    if (existing?.state === 'working') await this.events.deleteById(existing._id);
  }

  /** Forgets events older than `cutoff` (long after the provider stopped sending them again). */
  async deleteOlderThan(cutoff: Date, batch = 500): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.events.find({ createdAt: { $lt: cutoff } }, { limit: batch });
      for (const entry of old) if (await this.events.deleteById(entry._id)) removed += 1;
      if (old.length < batch) return removed;
    }
  }
}
