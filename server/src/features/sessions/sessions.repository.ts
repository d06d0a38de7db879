import type { Collection, DocChanges, Store, StoredDoc } from '../../store/store';

/** One signed-in browser or device. Its `_id` is the `jti` of the token it was issued with. */
export interface SessionDoc extends StoredDoc {
  userId: string;
  expiresAt: Date;
  /** Written at most every few minutes (see LAST_SEEN_EVERY_MS), never on every request. */
  lastSeenAt: Date;
  /** For the member's list of their sessions: which browser, from where. */
  userAgent: string;
  ip: string;
}

/** The only code that reads or writes sessions in the store. */
export class SessionsRepository {
  private readonly sessions: Collection<SessionDoc>;

  constructor(store: Store) {
    this.sessions = store.collection<SessionDoc>('sessions');
  }

  async init(): Promise<void> {
    await this.sessions.ensureIndex({ field: 'userId' });
    await this.sessions.ensureIndex({ field: 'expiresAt' });
  }

  /** Removes up to `limit` sessions that expired before `now`; answers how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = await this.sessions.find({ expiresAt: { $lte: now } }, { limit });
    for (const session of expired) await this.sessions.deleteById(session._id);
    return expired.length;
  }

  create(session: Omit<SessionDoc, keyof StoredDoc>): Promise<SessionDoc> {
    return this.sessions.insertOne(session);
  }

  findById(id: string): Promise<SessionDoc | null> {
    return this.sessions.findById(id);
  }

  listOf(userId: string): Promise<SessionDoc[]> {
    return this.sessions.find({ userId }, { sort: { lastSeenAt: -1, _id: -1 } });
  }

  update(id: string, changes: DocChanges<SessionDoc>): Promise<SessionDoc | null> {
    return this.sessions.updateById(id, changes);
  }

  delete(id: string): Promise<boolean> {
    return this.sessions.deleteById(id);
  }
}
