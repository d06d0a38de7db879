import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type MediaPath, parseMediaPath } from '../media-library';

/**
 * Resized copies of the library's pictures (and posters and smaller copies of its videos) live in
 * one hidden folder of the base path, `.copies/<category>/<file name>/`, so that every machine sharing the media
 * folder shares them, the file lists and scans never see them, and deleting `.copies` only costs
 * their remaking. Each file's name starts with the cache key of its original: a changed original
 * gets new names, so a copy's URL never changes its answer and may be cached for a year.
 */
export const COPIES_FOLDER = '.copies';

/** Widths (px) made for screens: a phone at DPR 3 (390-440 px) fits 1320, a 1080p desktop 1920. */
export const COPY_WIDTHS = [480, 960, 1320, 1920, 2560] as const;
/** The widest copy ever made: an original wider than this is never what the slideshow downloads. */
export const MAX_COPY_WIDTH = COPY_WIDTHS[COPY_WIDTHS.length - 1]!;
/** The console's grids show thumbnails of about 200 px: 400 covers them on a DPR-2 screen. */
export const THUMBNAIL_WIDTH = 400;
/**
 * Widths of a video's H.264 copies: 1280 (720p) is a phone's screen across in device pixels
 * (390 × 3 = 1170, 430 × 3 = 1290). Wider screens play the original.
 */
export const VIDEO_COPY_WIDTHS = [1280] as const;

/** What was made for one original: read by the slideshow and the file lists. */
export interface CopiesManifest {
  key: string;
  /** The original's size (for a video, its poster's) after EXIF orientation. */
  width: number;
  height: number;
  /** Widths of the copies made, smallest first; empty when there are none. */
  widths: number[];
  /** Whether the thumbnail was made (`<key>-thumb.webp`; the stored name of the field and file). */
  thumb: boolean;
  /** Why nothing could be made (not retried until the original changes). */
  failed?: string;
  /**
   * A video's H.264 copies, by width, smallest first (`[]`: none, see `videoNote`); absent while
   * they are still to make: the poster comes first, so that it is offered at once.
   */
  videoWidths?: number[];
  /** Why a video has no copies (too long, or ffmpeg could not make them); phones play the original. */
  videoNote?: string;
}

/** Whether everything there is to make for `media` is in the manifest (a video's copies too). */
export function isComplete(media: MediaPath, manifest: CopiesManifest | null): boolean {
  if (!manifest) return false;
  return media.category !== 'video' || manifest.failed !== undefined || manifest.videoWidths !== undefined;
}

/** The widths worth making for an original `width` px wide: never wider than it, nor a near twin of it. */
export function copyWidthsFor(width: number): number[] {
  const widths: number[] = COPY_WIDTHS.filter((w) => w < width * 0.9);
  if (width <= MAX_COPY_WIDTH) widths.push(width);
  return widths;
}

/** Size and modification time stand for the content: a replaced or edited original gets a new key. */
export function cacheKeyOf(info: Pick<Stats, 'size' | 'mtimeMs'>): string {
  return createHash('sha1')
    .update(`${info.size}:${Math.floor(info.mtimeMs)}`)
    .digest('hex')
    .slice(0, 12);
}

export function copiesFolderOf(base: string, media: MediaPath): string {
  return path.join(base, COPIES_FOLDER, media.category, media.name);
}

export const copyFileName = (key: string, width: number | 'thumb') => `${key}-${width}.webp`;
export const videoCopyFileName = (key: string, width: number) => `${key}-${width}.mp4`;
export const manifestName = (key: string) => `${key}.json`;

/** `<key>-<width>.webp`, `<key>-thumb.webp`, `<key>-<width>.mp4`: the only names served from a copies folder. */
export const COPY_FILE = /^[0-9a-f]{12}-(?:(?:\d{1,5}|thumb)\.webp|\d{1,5}\.mp4)$/;

/** The public URL of one copy of `media`. */
export function copyUrl(media: MediaPath, file: string): string {
  return `/media/${COPIES_FOLDER}/${media.category}/${encodeURIComponent(media.name)}/${file}`;
}

/** The manifest of the original as it is now, or null when its copies are missing or stale. */
export async function readCopies(base: string, media: MediaPath): Promise<CopiesManifest | null> {
  const info = await stat(path.join(base, media.category, media.name)).catch(() => null);
  if (!info?.isFile()) return null;
  return readManifest(copiesFolderOf(base, media), cacheKeyOf(info));
}

export async function readManifest(folder: string, key: string): Promise<CopiesManifest | null> {
  const text = await readFile(path.join(folder, manifestName(key)), 'utf8').catch(() => null);
  if (!text) return null;
  try {
    const manifest = JSON.parse(text) as CopiesManifest;
    return manifest.key === key && Array.isArray(manifest.widths) ? manifest : null;
  } catch {
    return null;
  }
}

/** `srcset` of the copies (`url 480w, url 960w`), or undefined when there are none. */
export function srcsetOf(media: MediaPath, manifest: CopiesManifest | null): string | undefined {
  if (!manifest?.widths.length) return undefined;
  return manifest.widths.map((w) => `${copyUrl(media, copyFileName(manifest.key, w))} ${w}w`).join(', ');
}

/** `/media/image/a%20b.jpg` as the library path it names, or null for anything else. */
export function libraryPathOf(url: string): MediaPath | null {
  if (!url.startsWith('/media/')) return null;
  try {
    return parseMediaPath(url.slice('/media/'.length).split('/').map(decodeURIComponent).join('/'));
  } catch {
    return null;
  }
}

/** The `srcset` of each library picture's copies by its public URL; those without copies yet are left out. */
export async function srcsetsOfUrls(base: string, urls: readonly string[]): Promise<Map<string, string>> {
  const found = await Promise.all(
    [...new Set(urls)].map(async (url) => {
      const media = libraryPathOf(url);
      const srcset = media && srcsetOf(media, await readCopies(base, media));
      return srcset ? ([[url, srcset]] as const) : [];
    }),
  );
  return new Map(found.flat());
}

/** The URL of the copy closest to `wanted` px wide without going under it (else the widest). */
export function copyNear(
  media: MediaPath,
  manifest: CopiesManifest | null,
  wanted: number,
): string | undefined {
  if (!manifest?.widths.length) return undefined;
  const width = manifest.widths.find((w) => w >= wanted) ?? manifest.widths[manifest.widths.length - 1]!;
  return copyUrl(media, copyFileName(manifest.key, width));
}

/** A video's copies as the public slides carry them, smallest first; undefined when there are none. */
export function videoCopiesOf(
  media: MediaPath,
  manifest: CopiesManifest | null,
): Array<{ src: string; width: number }> | undefined {
  if (!manifest?.videoWidths?.length) return undefined;
  return manifest.videoWidths.map((width) => ({
    src: copyUrl(media, videoCopyFileName(manifest.key, width)),
    width,
  }));
}

/** The URL of the thumbnail, once it has been made. */
export function thumbnailUrlOf(media: MediaPath, manifest: CopiesManifest | null): string | undefined {
  return manifest?.thumb ? copyUrl(media, copyFileName(manifest.key, 'thumb')) : undefined;
}

/** Removes every copy of an original (it was deleted). */
export function removeCopies(base: string, media: MediaPath): Promise<void> {
  return rm(copiesFolderOf(base, media), { recursive: true, force: true });
}

/**
 * Removes the copies whose original is gone (deleted by hand, outside the console); `present`
 * holds the library's paths (`image/a.jpg`). Answers how many originals' copies were removed.
 */
export async function pruneOrphanCopies(base: string, present: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  for (const category of ['image', 'video'] as const) {
    const folder = path.join(base, COPIES_FOLDER, category);
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (present.has(`${category}/${name}`)) continue;
      await rm(path.join(folder, name), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
