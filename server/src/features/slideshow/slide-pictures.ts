import type { Slide } from '@common/schemas/slideshow';
import { copyNear, libraryPathOf, readCopies, srcsetOf, videoCopiesOf } from '../media/copies/layout';

/** The fallback `src` of a poster: wide enough for a phone, for browsers that ignore `srcset`. */
const POSTER_FALLBACK_WIDTH = 960;

/**
 * Adds to each library slide what the visitor's browser chooses from: an image's resized copies
 * (`srcset`), a video's poster (`poster`) and smaller copies (`copies`). A slide whose copies are
 * not made yet goes out as it is, and the original is what plays until they are.
 */
export async function withPictures(base: string, slides: readonly Slide[]): Promise<Slide[]> {
  return Promise.all(
    slides.map(async (slide) => {
      const media = libraryPathOf(slide.src);
      if (!media) return slide;
      const manifest = await readCopies(base, media);
      const srcset = srcsetOf(media, manifest);
      if (!srcset) return slide;
      if (slide.type === 'image') return { ...slide, srcset };
      const poster = { src: copyNear(media, manifest, POSTER_FALLBACK_WIDTH)!, srcset };
      const copies = videoCopiesOf(media, manifest);
      return copies ? { ...slide, poster, copies } : { ...slide, poster };
    }),
  );
}
