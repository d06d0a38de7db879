import type { SliderPublicConfig } from '@common/schemas/slider';

/**
 * Window events between the Background Manager and the slideshow. Events, not imports, so the
 * slideshow (on every public page) never pulls console code into the landing bundle.
 */

/** detail: the overlay settings to preview, or null to stop previewing. Applied on /admin routes only. */
export const SLIDER_PREVIEW_EVENT = 'slider-preview';
/** Asks the slideshow to reload its public data now (after a save). */
export const SLIDER_RELOAD_EVENT = 'slider-reload';

export type SliderPreview = Partial<Pick<SliderPublicConfig, 'overlayColor' | 'overlayOpacity'>>;

export function previewSlider(detail: SliderPreview | null): void {
  window.dispatchEvent(new CustomEvent<SliderPreview | null>(SLIDER_PREVIEW_EVENT, { detail }));
}

export function reloadSlider(): void {
  window.dispatchEvent(new Event(SLIDER_RELOAD_EVENT));
}
