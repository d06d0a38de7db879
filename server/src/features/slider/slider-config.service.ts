import type { SliderConfig, sliderConfigBody } from '@common/schemas/slider';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { resolveBasePath } from '../media/media-library';
import type { PlaylistsRepository } from '../playlists/playlists.repository';
import type { SliderConfigRepository } from './slider-config.repository';

/**
 * Saves the whole slider configuration after the checks a schema cannot make: the base path
 * must lie inside an allowed media root, and an active playlist must exist.
 */
export async function saveSliderConfig(
  deps: {
    sliderConfig: SliderConfigRepository;
    playlists: PlaylistsRepository;
    mediaRoots: readonly string[];
  },
  input: z.infer<typeof sliderConfigBody>,
): Promise<SliderConfig> {
  const backgroundsBasePath = await resolveBasePath(input.backgroundsBasePath, deps.mediaRoots);
  if (input.activePlaylist && !(await deps.playlists.findById(input.activePlaylist))) {
    throw new AppError('VALIDATION', 'The selected playlist no longer exists. Please choose another.');
  }
  return deps.sliderConfig.save({ ...input, backgroundsBasePath });
}
