import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { CopiesQueue } from './copies/queue';
import type { CoursePictureUses } from './course-uses';
import { mediaRoutes } from './media.routes';
import { MediaService } from './media.service';
import { MediaScansRepository } from './media-scans.repository';
import { registerMediaServing } from './media-serve';

/**
 * The media library: `/api/media` (list, scan, upload, delete; administrators only) and `/media`
 * (the files and their resized copies, public: the slideshow plays for visitors). Its folder's
 * repository is the context's: courses and the slideshow read it too.
 */
export async function createMediaFeature(
  ctx: AppContext,
  deps: { coursePictures: CoursePictureUses },
): Promise<Feature> {
  const scans = new MediaScansRepository(ctx.store);
  await scans.init();
  // Copies are made in the background, after the answer; a change in them reaches the slideshow.
  const copies = new CopiesQueue(ctx.log, () => ctx.slideshowSettings.markChanged());
  const media = new MediaService(ctx, scans, copies);
  // Reported at start too: an owner reading the log learns it before the first upload fails.
  void media.folderProblem().then(
    (problem) => problem && ctx.log.warn(problem),
    () => undefined,
  );
  return {
    name: 'media',
    routes: [{ prefix: '/api/media', plugin: mediaRoutes(media, deps.coursePictures, ctx) }],
    serve: (app) => registerMediaServing(app, ctx),
    close: () => copies.close(),
  };
}
