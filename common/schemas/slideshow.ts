import { z } from 'zod';
import type { DataAnswer, DoneAnswer, TextFile } from './envelopes';

/** Overlay colour as three comma-separated 0-255 numbers, e.g. "0,0,0". */
export const overlayColorSchema = z
  .string()
  .trim()
  .regex(
    /^\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}$/,
    'Overlay colour must be three numbers from 0 to 255, like "0,0,0"',
  )
  .refine(
    (value) => value.split(',').every((part) => Number(part) <= 255),
    'Each colour channel must be 0 to 255',
  )
  .transform((value) =>
    value
      .split(',')
      .map((part) => Number(part))
      .join(','),
  );

export interface SlideshowSettings {
  /** Absolute folder holding image/, video/ and audio/. */
  backgroundsBasePath: string;
  /** Playlist id, or null for none (then the whole library plays). */
  activePlaylist: string | null;
  cycleTime: number;
  transitionDuration: number;
  overlayColor: string;
  overlayOpacity: number;
  randomOrder: boolean;
}

/** Bounds that keep a typo (8 instead of 8000) from turning the background into a strobe. */
export const CYCLE_TIME_RANGE = { min: 1000, max: 3_600_000 } as const;
export const TRANSITION_RANGE = { min: 0, max: 60_000 } as const;

function wholeMs(label: string, range: { min: number; max: number }) {
  const message = `${label} must be a whole number of milliseconds from ${range.min} to ${range.max}`;
  // A refinement rather than .int(): zod reports a fraction as a type error, which hides this message.
  return z
    .number({ error: message })
    .min(range.min, message)
    .max(range.max, message)
    .refine(Number.isInteger, message);
}

/** PUT /api/slider/config: the full configuration, as the Background Manager sends it. */
export const slideshowSettingsBody = z.object({
  backgroundsBasePath: z
    .string({ error: 'Please set a base path first.' })
    .trim()
    .min(1, 'Please set a base path first.')
    .max(1000, 'The base path is too long'),
  activePlaylist: z
    .string({ error: 'activePlaylist must be a playlist id or null' })
    .trim()
    .max(64)
    .nullish()
    .transform((value) => value || null),
  cycleTime: wholeMs('Cycle time', CYCLE_TIME_RANGE),
  transitionDuration: wholeMs('Transition duration', TRANSITION_RANGE),
  overlayColor: overlayColorSchema,
  overlayOpacity: z
    .number({ error: 'Overlay opacity must be a number from 0 to 1' })
    .min(0, 'Overlay opacity must be a number from 0 to 1')
    .max(1, 'Overlay opacity must be a number from 0 to 1'),
  randomOrder: z.boolean({ error: 'randomOrder must be true or false' }),
});

export type SlideType = 'image' | 'video';

export interface Slide {
  type: SlideType;
  /** A URL the browser can load: `/media/...` for library files (the original, as uploaded). */
  src: string;
  /**
   * An image's resized WebP copies as an `<img srcset>` (`/media/.copies/… 480w, … 960w`), so
   * each screen downloads the one its width needs; absent until they are made, and for SVG and GIF.
   */
  srcset?: string;
  /** A video's still picture, shown instead of it to visitors who ask for reduced motion or to save data. */
  poster?: SlidePoster;
  /**
   * A video's smaller H.264 copies, narrowest first (a `<video>` has no `srcset`): the player
   * plays the narrowest at least as wide as the screen in device pixels, else `src`, the
   * original. Absent until they are made, and for videos no wider than them.
   */
  copies?: SlideCopy[];
}

export interface SlideCopy {
  src: string;
  /** In pixels. */
  width: number;
}

export interface SlidePoster {
  /** A mid-size copy, for browsers that ignore `srcset`. */
  src: string;
  srcset: string;
}

/** The part of the configuration every visitor may see (never the base path). */
export type PublicSlideshowSettings = Pick<
  SlideshowSettings,
  'cycleTime' | 'transitionDuration' | 'overlayColor' | 'overlayOpacity' | 'randomOrder'
>;

/** GET /api/slider/public `data`. `images` and `videos` are the legacy per-type source lists. */
export interface PublicSlidesData {
  slides: Slide[];
  images: string[];
  videos: string[];
  config: PublicSlideshowSettings;
}

/** GET /api/slider/public: worked out once per change and written from memory (http/fast-lane.ts). */
export type SlideshowPublicResponse = DataAnswer<PublicSlidesData>;

/** GET /api/slider/defaults/:file: a default background, as an SVG drawing. */
export type DefaultBackgroundResponse = TextFile;

/** GET /api/slider/config */
export type SlideshowConfigResponse = DataAnswer<SlideshowSettings>;

/** PUT /api/slider/config: the settings as saved. */
export interface SlideshowSaveResponse extends DoneAnswer {
  data: SlideshowSettings;
}
