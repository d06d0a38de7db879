import type { Slide } from '@common/schemas/slideshow';

export type Media = HTMLImageElement | HTMLVideoElement;

/**
 * The element that shows a slide. A picture comes with its resized copies (`srcset`): the
 * browser downloads the one the screen's width and pixel density need, never the camera
 * original; a video plays the copy that fits the screen (`videoSource`). With `postersOnly` (the
 * visitor asks for reduced motion or to save data) a video is shown as its poster, and not a
 * byte of the video is asked for.
 */
export function createMedia(slide: Slide, postersOnly: boolean): Media {
  if (slide.type === 'image') return picture(slide.src, slide.srcset);
  if (postersOnly && slide.poster) return picture(slide.poster.src, slide.poster.srcset);
  const video = document.createElement('video');
  // Muted and inline: the only way browsers let a background video play by itself.
  video.muted = true;
  video.defaultMuted = true;
  video.setAttribute('muted', '');
  video.playsInline = true;
  // As the next slide only its start is fetched, up to its first frame; the rest streams once it
  // shows (the engine asks for all of it then). A video that is next when the visitor leaves has
  // cost a few hundred kilobytes, not all of it.
  video.preload = 'metadata';
  video.className = 'h-full w-full object-cover';
  video.src = videoSource(slide, window.innerWidth * (window.devicePixelRatio || 1));
  return video;
}

/**
 * What a `<video srcset>` would choose, had it one: the narrowest copy at least as wide as the
 * screen's `devicePixels` across (one within a tenth of it will do, the slack the server's widths
 * allow too), else the original, which is wider than every copy.
 */
export function videoSource(slide: Slide, devicePixels: number): string {
  return slide.copies?.find((copy) => copy.width >= devicePixels * 0.9)?.src ?? slide.src;
}

function picture(src: string, srcset: string | undefined): HTMLImageElement {
  const img = document.createElement('img');
  img.alt = '';
  img.decoding = 'async';
  img.draggable = false;
  img.className = 'h-full w-full object-cover';
  // The slide fills the screen's width (sizes before srcset, both before src: one choice, one download).
  if (srcset) {
    img.sizes = '100vw';
    img.srcset = srcset;
  }
  img.src = src;
  return img;
}

/** The slides that can play: with `postersOnly`, a video without a poster has nothing to show. */
export function playableSlides(slides: readonly Slide[], postersOnly: boolean): Slide[] {
  return postersOnly ? slides.filter((slide) => slide.type === 'image' || slide.poster) : [...slides];
}

/**
 * True once the item can be shown: an image loaded, a video with its first frame (`loadeddata`;
 * browsers that preload further say `canplay` first); false when it fails.
 */
export function whenLoaded(media: Media): Promise<boolean> {
  return new Promise((resolve) => {
    if (media instanceof HTMLImageElement && media.complete && media.naturalWidth > 0) return resolve(true);
    const ready = media instanceof HTMLVideoElement ? ['loadeddata', 'canplay'] : ['load'];
    for (const event of ready) media.addEventListener(event, () => resolve(true), { once: true });
    media.addEventListener('error', () => resolve(false), { once: true });
  });
}

/** Stops the download of whatever the element held and removes it. */
export function release(media: Media | null): void {
  if (media instanceof HTMLVideoElement) {
    media.pause();
    media.removeAttribute('src');
    media.load();
  } else if (media) {
    media.removeAttribute('srcset');
    media.removeAttribute('src');
  }
  media?.remove();
}

export function sameSlides(a: readonly Slide[], b: readonly Slide[]): boolean {
  return (
    a.length === b.length &&
    a.every((slide, i) => {
      const other = b[i]!;
      return (
        slide.src === other.src &&
        slide.type === other.type &&
        slide.srcset === other.srcset &&
        slide.poster?.srcset === other.poster?.srcset &&
        slide.copies?.map((copy) => copy.src).join() === other.copies?.map((copy) => copy.src).join()
      );
    })
  );
}
