import type { ActivityKind } from '@common/schemas/activity';
import type {
  Collection,
  DocChanges,
  Filter,
  FindOptions,
  NewDoc,
  Store,
  StoredDoc,
} from '../../store/store';

export interface ActivityDoc extends StoredDoc {
  actorId: string | null;
  actorEmail: string;
  address: string;
  kind: ActivityKind;
  summary: string;
  /** Already redacted: a secret never reaches this collection. */
  before: unknown;
  after: unknown;
}

/**
 * The only code that touches the `activity` collection. It can add and read entries, rewrite one
 * to take a deleted person's data out of it, and drop expired ones.
 */
export class ActivityRepository {
  private readonly entries: Collection<ActivityDoc>;

  constructor(store: Store) {
    this.entries = store.collection<ActivityDoc>('activity');
  }

  async init(): Promise<void> {
    await this.entries.ensureIndex({ field: 'createdAt' });
    await this.entries.ensureIndex({ field: 'actorEmail' });
    await this.entries.ensureIndex({ field: 'actorId' });
    await this.entries.ensureIndex({ field: 'kind' });
  }

  append(entry: NewDoc<ActivityDoc>): Promise<ActivityDoc> {
    return this.entries.insertOne(entry);
  }

  find(filter: Filter, options?: FindOptions): Promise<ActivityDoc[]> {
    return this.entries.find(filter, options);
  }

  /** Every matching entry, a batch at a time. */
  findInBatches(filter: Filter): AsyncIterable<ActivityDoc[]> {
    return this.entries.findInBatches(filter);
  }

  count(filter: Filter): Promise<number> {
    return this.entries.count(filter);
  }

  /** Replaces what an entry says (never when or what kind): only to anonymise a deleted person. */
  async rewrite(id: string, fields: DocChanges<ActivityDoc>): Promise<void> {
    await this.entries.updateById(id, fields);
  }

  /** Removes entries older than `cutoff`, a batch at a time so that a large backlog never sits in memory. */
  async deleteOlderThan(cutoff: Date, batch = 500): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.entries.find({ createdAt: { $lt: cutoff } }, { limit: batch });
      for (const entry of old) if (await this.entries.deleteById(entry._id)) removed += 1;
      if (old.length < batch) return removed;
    }
  }
}
