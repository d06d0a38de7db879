import type { SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import type { Collection, Store, StoredDoc } from '../../store/store';
import type { SharedChanges } from '../shared-state/shared-changes';

/** What this document keeps: the slideshow's own settings (the folder is the media library's). */
export type StoredSlideshowSettings = Omit<SlideshowSettings, 'backgroundsBasePath'>;

interface SettingsDoc extends StoredDoc {
  key: string;
  value: Partial<StoredSlideshowSettings>;
}

const SLIDESHOW_KEY = 'slider';

/**
 * The slideshow settings, one document in the `settings` collection. Missing fields read as
 * the spec's defaults, so a new install needs no set-up. The media folder, which the spec's API
 * shows among these settings, is kept by the media library (MediaFolderRepository).
 */
export class SlideshowSettingsRepository {
  private readonly settings: Collection<SettingsDoc>;

  constructor(
    store: Store,
    private readonly changes: SharedChanges,
  ) {
    this.settings = store.collection<SettingsDoc>('settings');
  }

  async init(): Promise<void> {
    await this.settings.ensureIndex({ field: 'key', unique: true });
  }

  async get(): Promise<StoredSlideshowSettings> {
    const doc = await this.settings.findOne({ key: SLIDESHOW_KEY });
    return {
      activePlaylist: null,
      ...SLIDESHOW_DEFAULTS,
      ...doc?.value,
    };
  }

  async save(config: StoredSlideshowSettings): Promise<StoredSlideshowSettings> {
    const existing = await this.settings.findOne({ key: SLIDESHOW_KEY });
    if (existing) await this.settings.updateById(existing._id, { value: config });
    else await this.settings.insertOne({ key: SLIDESHOW_KEY, value: config });
    await this.markChanged();
    return this.get();
  }

  /**
   * Goes up at every slideshow, playlist or media change made through any server process (this one
   * at once, the others within a second: see SharedChanges), so cached public slides are rebuilt.
   */
  get revision(): number {
    return this.changes.revision('slider');
  }

  /** Called after anything the public slides depend on changes (config, playlists, media). */
  markChanged(): Promise<void> {
    return this.changes.bump('slider');
  }
}
