import type { SlideshowSettings } from '@common/schemas/slideshow';
import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { StoredSettingsRepository } from '../../settings/stored-settings.repository';
import type { Store } from '../../store/store';
import type { SharedChanges } from '../shared-state/shared-changes';

/** What this document keeps: the slideshow's own settings (the folder is the media library's). */
export type StoredSlideshowSettings = Omit<SlideshowSettings, 'backgroundsBasePath'>;

/**
 * The slideshow settings, one document in the `settings` collection. Missing fields read as
 * the spec's defaults, so a new install needs no set-up. The media folder, which the spec's API
 * shows among these settings, is kept by the media library (MediaFolderRepository).
 */
export class SlideshowSettingsRepository {
  private readonly settings: StoredSettingsRepository<StoredSlideshowSettings>;

  constructor(
    store: Store,
    private readonly changes: SharedChanges,
  ) {
    // Keyed `slider`, its first spelling: saved sites have it under that name.
    this.settings = new StoredSettingsRepository(store, 'slider');
  }

  init(): Promise<void> {
    return this.settings.init();
  }

  async get(): Promise<StoredSlideshowSettings> {
    return {
      activePlaylist: null,
      ...SLIDESHOW_DEFAULTS,
      ...(await this.settings.read()),
    };
  }

  async save(config: StoredSlideshowSettings): Promise<StoredSlideshowSettings> {
    await this.settings.write(config);
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
