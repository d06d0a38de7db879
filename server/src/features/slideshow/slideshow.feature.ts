import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import type { CoursePictureUses } from '../media/course-uses';
import { PlaylistsRepository } from '../playlists/playlists.repository';
import { PublicSlides } from './public-slides';
import { slideshowRoutes } from './slideshow.routes';
import { SlideshowSettingsService } from './slideshow-settings.service';

/**
 * `/api/slider`: the public slides every page plays (also answered by the fast lane), the default
 * backgrounds, and the settings for administrators. Its settings' repository is the context's:
 * playlists and the media library tell it of their changes. It never plays a course's pictures
 * (`coursePictures`, from the courses feature): they are the course's, not the background's.
 */
export async function createSlideshowFeature(
  ctx: AppContext,
  deps: { coursePictures: CoursePictureUses },
): Promise<Feature> {
  const playlists = new PlaylistsRepository(ctx.store);
  const publicSlides = new PublicSlides(
    ctx.slideshowSettings,
    ctx.mediaFolder,
    playlists,
    deps.coursePictures,
  );
  const settings = new SlideshowSettingsService(
    ctx.slideshowSettings,
    ctx.mediaFolder,
    playlists,
    ctx.config.mediaRoots,
  );
  return {
    name: 'slideshow',
    routes: [{ prefix: '/api/slider', plugin: slideshowRoutes(publicSlides, settings, ctx) }],
  };
}
