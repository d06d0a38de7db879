import type { SlideshowSettings, slideshowSettingsBody } from '@common/schemas/slideshow';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { resolveBasePath } from '../media/media-library';
import type { PlaylistsRepository } from '../playlists/playlists.repository';
import type { SlideshowSettingsRepository } from './slideshow-settings.repository';

/**
 * Saves the whole slideshow settings after the checks a schema cannot make: the base path
 * must lie inside an allowed media root, and an active playlist must exist.
 */
export async function saveSlideshowSettings(
  deps: {
    slideshowSettings: SlideshowSettingsRepository;
    playlists: PlaylistsRepository;
    mediaRoots: readonly string[];
  },
  input: z.infer<typeof slideshowSettingsBody>,
): Promise<SlideshowSettings> {
  const backgroundsBasePath = await resolveBasePath(input.backgroundsBasePath, deps.mediaRoots);
  if (input.activePlaylist && !(await deps.playlists.findById(input.activePlaylist))) {
    throw new AppError('VALIDATION', 'The selected playlist no longer exists. Please choose another.');
  }
  return deps.slideshowSettings.save({ ...input, backgroundsBasePath });
}
