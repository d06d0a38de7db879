import type { Collection, Store, StoredDoc } from '../../store/store';
import { DuplicateKeyError } from '../../store/store';

interface SettingsDoc extends StoredDoc {
  key: string;
  value: Record<string, unknown>;
}

const MEDIA_KEY = 'media';
/** Where the folder was kept before it had a home of its own: inside the slideshow's settings. */
const OLD_HOME = { key: 'slider', field: 'backgroundsBasePath' } as const;

/**
 * The media library's folder: one document keyed `media` in the `settings` collection. The
 * slideshow settings' `backgroundsBasePath` (the spec's API field) reads and writes it here; the
 * library, its serving and the playlists read it here too, so the folder belongs to no one panel.
 */
export class MediaFolderRepository {
  private readonly settings: Collection<SettingsDoc>;

  constructor(
    store: Store,
    /** The folder until one is chosen (config.mediaDir). */
    private readonly defaultFolder: string,
  ) {
    this.settings = store.collection<SettingsDoc>('settings');
  }

  async init(): Promise<void> {
    await this.settings.ensureIndex({ field: 'key', unique: true });
    await this.moveFromOldHome();
  }

  async get(): Promise<string> {
    const doc = await this.settings.findOne({ key: MEDIA_KEY });
    const folder = doc?.value.folder;
    return typeof folder === 'string' ? folder : this.defaultFolder;
  }

  async save(folder: string): Promise<void> {
    const existing = await this.settings.findOne({ key: MEDIA_KEY });
    if (existing) await this.settings.updateById(existing._id, { value: { ...existing.value, folder } });
    else await this.settings.insertOne({ key: MEDIA_KEY, value: { folder } });
  }

  /**
   * Data saved before the move keeps its folder: copied to its own document first, then taken
   * out of the slideshow's, so a crash in between only repeats the second step at the next start.
   * Every process runs this at start; the unique key lets one insert win and the others go on.
   */
  private async moveFromOldHome(): Promise<void> {
    const old = await this.settings.findOne({ key: OLD_HOME.key });
    const folder = old?.value[OLD_HOME.field];
    if (!old || folder === undefined) return;
    if (typeof folder === 'string' && !(await this.settings.findOne({ key: MEDIA_KEY }))) {
      await this.settings.insertOne({ key: MEDIA_KEY, value: { folder } }).catch((error: unknown) => {
        if (!(error instanceof DuplicateKeyError)) throw error;
      });
    }
    const { [OLD_HOME.field]: _moved, ...rest } = old.value;
    await this.settings.updateById(old._id, { value: rest });
  }
}
