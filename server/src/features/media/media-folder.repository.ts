import { StoredSettingsRepository } from '../../settings/stored-settings.repository';
import type { Store } from '../../store/store';

/**
 * The media library's folder, saved in the store under the key `media`. The slideshow settings'
 * `backgroundsBasePath` (the spec's API field) reads and writes it here; the library, its serving
 * and the playlists read it here too, so the folder belongs to no one panel.
 */
export class MediaFolderRepository {
  private readonly saved: StoredSettingsRepository<{ folder: string }>;
  /** Where the folder was kept before it had a home of its own: in the slideshow's settings. */
  private readonly oldHome: StoredSettingsRepository<{ backgroundsBasePath: string }>;

  constructor(
    store: Store,
    /** The folder until one is chosen (config.mediaDir). */
    private readonly defaultFolder: string,
  ) {
    this.saved = new StoredSettingsRepository(store, 'media');
    this.oldHome = new StoredSettingsRepository(store, 'slider');
  }

  async init(): Promise<void> {
    await this.saved.init();
    await this.moveFromOldHome();
  }

  async get(): Promise<string> {
    return (await this.saved.read())?.folder ?? this.defaultFolder;
  }

  save(folder: string): Promise<void> {
    return this.saved.write({ folder });
  }

  /**
   * Data saved before the move keeps its folder: copied to its own document first, then taken
   * out of the slideshow's, so a crash in between only repeats the second step at the next start.
   * Every process runs this at start, and each step is safe to repeat.
   */
  private async moveFromOldHome(): Promise<void> {
    const old = await this.oldHome.read();
    if (!old || !('backgroundsBasePath' in old)) return;
    const { backgroundsBasePath: folder, ...rest } = old;
    if (typeof folder === 'string' && !(await this.saved.read())) await this.save(folder);
    await this.oldHome.write(rest);
  }
}
