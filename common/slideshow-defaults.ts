/**
 * The slideshow's defaults. Kept apart from the zod schemas so that the
 * slideshow, which runs on every public page, does not pull the validation library into them.
 */
export const SLIDESHOW_DEFAULTS = {
  cycleTime: 8000,
  transitionDuration: 1500,
  overlayColor: '0,0,0',
  overlayOpacity: 0.2,
  randomOrder: false,
} as const;
