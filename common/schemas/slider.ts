import { z } from 'zod';

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

export const SLIDER_DEFAULTS = {
  cycleTime: 8000,
  transitionDuration: 1500,
  overlayColor: '0,0,0',
  overlayOpacity: 0.2,
  randomOrder: false,
} as const;

export interface SliderConfig {
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
