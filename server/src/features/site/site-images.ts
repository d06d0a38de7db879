import { stat } from 'node:fs/promises';
import { MAX_SITE_IMAGE_BYTES, type SITE_ICON_SIZES } from '@common/site';
import { AppError } from '../../lib/app-error';
import { inspectMediaFile, parseMediaPath } from '../media/media-library';

type SharpModule = typeof import('sharp')['default'];
let loaded: Promise<SharpModule> | undefined;
/** sharp loads with the first logo checked or icon made, not at start (most processes never need it). */
const sharp = () => {
  loaded ??= import('sharp').then(({ default: module }) => module);
  return loaded;
};

/** The picture formats a logo or an icon may be: what every browser shows. */
const FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'svg']);
const MAX_MB = MAX_SITE_IMAGE_BYTES / 1024 / 1024;

/**
 * Checks that a library path names a real picture fit for a logo or an icon: in the library,
 * at most MAX_SITE_IMAGE_BYTES, and one that sharp can read as an image (not a renamed file).
 * Answers the file's absolute path; refuses with a sentence naming `role` otherwise.
 */
export async function checkSiteImage(basePath: string, relative: string, role: string): Promise<string> {
  const media = parseMediaPath(relative);
  if (media?.category !== 'image')
    throw new AppError('VALIDATION', `The ${role} must be a picture of the media library.`);
  const found = await inspectMediaFile(basePath, media);
  if (!found.ok)
    throw new AppError(
      'VALIDATION',
      `The ${role} ${relative} is not in the media library (${found.problem}).`,
    );
  const { size } = await stat(found.absolute);
  if (size > MAX_SITE_IMAGE_BYTES) {
    throw new AppError(
      'VALIDATION',
      `The ${role} is ${(size / 1024 / 1024).toFixed(1)} MB; at most ${MAX_MB} MB. Use a smaller copy of the picture.`,
    );
  }
  const format = await (await sharp())(found.absolute)
    .metadata()
    .then((meta) => meta.format as string | undefined)
    .catch(() => undefined);
  if (!format || !FORMATS.has(format)) {
    throw new AppError(
      'VALIDATION',
      `The ${role} is not a picture this site can show (use PNG, JPEG, WebP, GIF or SVG).`,
    );
  }
  return found.absolute;
}

export type IconSize = (typeof SITE_ICON_SIZES)[number];

/** The icon as a square PNG of `size` pixels, the picture centred on a transparent square. */
export async function makeIcon(absolute: string, size: IconSize): Promise<Buffer> {
  return (await sharp())(absolute, { density: 300 })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}
