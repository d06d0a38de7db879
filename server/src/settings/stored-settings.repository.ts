import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../store/store';

interface SettingsDoc<T> extends StoredDoc {
  key: string;
  value: Partial<T>;
}

/**
 * Settings saved in the store: one document of the `settings` collection, named by its key
 * (`slider`, `media`), holding one value. For settings every server process and machine must
 * read alike; those a machine keeps for itself are files (`app-server-file.ts`, `payments-file.ts`).
 * The only code touching that collection: the repositories of those settings read and write
 * through it (slideshow-settings.repository.ts, media-folder.repository.ts).
 */
export class StoredSettingsRepository<T extends object> {
  private readonly settings: Collection<SettingsDoc<T>>;

  constructor(
    store: Store,
    private readonly key: string,
  ) {
    this.settings = store.collection<SettingsDoc<T>>('settings');
  }

  init(): Promise<void> {
    return this.settings.ensureIndex({ field: 'key', unique: true });
  }

  /** What was saved (possibly only some fields, from an older version), or null. */
  async read(): Promise<Partial<T> | null> {
    return (await this.settings.findOne({ key: this.key }))?.value ?? null;
  }

  /** Replaces the whole value. Two processes writing the first value at once: both end as updates. */
  async write(value: Partial<T>): Promise<void> {
    const existing = await this.settings.findOne({ key: this.key });
    if (existing) {
      await this.settings.updateById(existing._id, { value });
      return;
    }
    try {
      await this.settings.insertOne({ key: this.key, value });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.write(value);
    }
  }
}
