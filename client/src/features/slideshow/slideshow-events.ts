import type { PublicSlideshowSettings } from '@common/schemas/slideshow';

/**
 * Window events between the Background Manager and the slideshow. Events, not imports, so the
 * slideshow (on every public page) never pulls console code into the landing bundle.
 */

/** detail: the overlay settings to preview, or null to stop previewing. Applied on /admin routes only. */
export const SLIDESHOW_PREVIEW_EVENT = 'slideshow-preview';
/** Asks the slideshow to reload its public data now (after a save). */
export const SLIDESHOW_RELOAD_EVENT = 'slideshow-reload';

export type SlideshowPreview = Partial<Pick<PublicSlideshowSettings, 'overlayColor' | 'overlayOpacity'>>;

export function previewSlideshow(detail: SlideshowPreview | null): void {
  window.dispatchEvent(new CustomEvent<SlideshowPreview | null>(SLIDESHOW_PREVIEW_EVENT, { detail }));
}

export function reloadSlideshow(): void {
  window.dispatchEvent(new Event(SLIDESHOW_RELOAD_EVENT));
}
