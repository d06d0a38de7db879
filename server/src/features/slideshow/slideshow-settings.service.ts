import type { SlideshowSettings, slideshowSettingsBody } from '@common/schemas/slideshow';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { MediaFolderRepository } from '../media/media-folder.repository';
import { resolveBasePath } from '../media/media-library';
import type { PlaylistsRepository } from '../playlists/playlists.repository';
import type { SlideshowSettingsRepository } from './slideshow-settings.repository';

/**
 * The slideshow settings as the spec's API shows them: the slideshow's own settings and, as
 * `backgroundsBasePath`, the media library's folder, which is kept by the library.
 */
export class SlideshowSettingsService {
  constructor(
    private readonly slideshowSettings: SlideshowSettingsRepository,
    private readonly mediaFolder: MediaFolderRepository,
    private readonly playlists: PlaylistsRepository,
    private readonly mediaRoots: readonly string[],
  ) {}

  async read(): Promise<SlideshowSettings> {
    const [settings, backgroundsBasePath] = await Promise.all([
      this.slideshowSettings.get(),
      this.mediaFolder.get(),
    ]);
    return { backgroundsBasePath, ...settings };
  }

  /**
   * Saves the whole settings after the checks a schema cannot make: the base path must lie
   * inside an allowed media root, and an active playlist must exist.
   */
  async save(input: z.infer<typeof slideshowSettingsBody>): Promise<SlideshowSettings> {
    const { backgroundsBasePath: requested, ...settings } = input;
    const backgroundsBasePath = await resolveBasePath(requested, this.mediaRoots);
    if (settings.activePlaylist && !(await this.playlists.findById(settings.activePlaylist))) {
      throw new AppError('VALIDATION', 'The selected playlist no longer exists. Please choose another.');
    }
    await this.mediaFolder.save(backgroundsBasePath);
    // Saved second: its change mark also tells every process that the folder changed.
    await this.slideshowSettings.save(settings);
    return this.read();
  }
}
