import type { SlideshowSettings, slideshowSettingsBody } from '@common/schemas/slideshow';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { resolveBasePath } from '../media/media-library';
import type { PlaylistsRepository } from '../playlists/playlists.repository';
import type { SlideshowSettingsRepository } from './slideshow-settings.repository';

/** The slideshow settings as administrators change them. */
export class SlideshowSettingsService {
  constructor(
    private readonly slideshowSettings: SlideshowSettingsRepository,
    private readonly playlists: PlaylistsRepository,
    private readonly mediaRoots: readonly string[],
  ) {}

  /**
   * Saves the whole settings after the checks a schema cannot make: the base path must lie
   * inside an allowed media root, and an active playlist must exist.
   */
  async save(input: z.infer<typeof slideshowSettingsBody>): Promise<SlideshowSettings> {
    const backgroundsBasePath = await resolveBasePath(input.backgroundsBasePath, this.mediaRoots);
    if (input.activePlaylist && !(await this.playlists.findById(input.activePlaylist))) {
      throw new AppError('VALIDATION', 'The selected playlist no longer exists. Please choose another.');
    }
    return this.slideshowSettings.save({ ...input, backgroundsBasePath });
  }
}
