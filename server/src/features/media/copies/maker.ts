import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getsCopies } from '@common/media';
import type { Sharp, SharpOptions } from 'sharp';
import { inspectMediaFile, type MediaPath } from '../media-library';
import {
  type CopiesManifest,
  cacheKeyOf,
  copiesFolderOf,
  copyFileName,
  copyWidthsFor,
  isComplete,
  manifestName,
  readManifest,
  THUMBNAIL_WIDTH,
  videoCopyFileName,
} from './layout';
import { ffmpegAvailable, videoPoster } from './poster';
import { encodeVideoCopy, videoCopyWidthsFor, whyNoVideoCopy } from './video';

/** WebP quality of the copies: a background under an overlay; 75 keeps them about a third of JPEG 90's size. */
const COPY_QUALITY = 75;
const THUMBNAIL_QUALITY = 70;
/** 100 megapixels: more than any camera; beyond that an upload is a decompression bomb, not a photo. */
const MAX_INPUT_PIXELS = 100_000_000;
/**
 * A picture takes seconds; a video's copy may take minutes, but its lock is touched as ffmpeg
 * advances: a lock untouched this long was left by a process that died mid-build.
 */
const STALE_LOCK_MS = 10 * 60 * 1000;
const LOCK_TOUCH_MS = 60 * 1000;
const LOCK = '.lock';

export type MakeOutcome =
  /** Copies (or a video's poster and its copies) were written. */
  | 'made'
  /** They were there already for the original as it is. */
  | 'current'
  /** Nothing to make: SVG, GIF, audio, or a video while ffmpeg is missing. */
  | 'skipped'
  /** Another process (or machine sharing the folder) is making them right now. */
  | 'busy'
  /** The original is gone, or not a regular file inside the library. */
  | 'gone'
  /** It could not be read as a picture (recorded, not retried until the original changes). */
  | 'unreadable';

export interface MakeResult {
  outcome: MakeOutcome;
  /** Why a video that got its poster has no copies for phones (recorded, like `unreadable`). */
  note?: string;
}

export interface MakeOptions {
  /** Remake what is there already. */
  force?: boolean;
  /** Called while a long job (a video's copies) advances. */
  onProgress?: () => void;
}

type SharpModule = typeof import('sharp')['default'];
let loaded: Promise<SharpModule> | undefined;

/**
 * sharp (libvips) loads with the first picture, not at start: it costs each server process
 * memory it may never need. One thread and no operation cache: copies are made one at a time
 * in the background, and must leave the cores and the memory to the visitors.
 */
function loadSharp(): Promise<SharpModule> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

/**
 * Makes the resized copies and the thumbnail of one library file (for a video: of its poster, a
 * frame taken with ffmpeg, then its smaller H.264 copies), unless they exist for the original as it is now.
 * Every file is written under a temporary name and renamed into place, the manifest last, so a
 * reader never sees half a set; a video's manifest is written once with its poster (so that it is
 * offered at once) and again with its copies. A lock file beside them keeps two processes from
 * making the same set at once. Disk errors (full, read-only) are thrown; a file that is no
 * picture is recorded as unreadable.
 */
export async function makeCopies(
  base: string,
  media: MediaPath,
  { force = false, onProgress }: MakeOptions = {},
): Promise<MakeResult> {
  if (!getsCopies(media.category, media.name)) return { outcome: 'skipped' };
  if (media.category === 'video' && !(await ffmpegAvailable())) return { outcome: 'skipped' };
  const check = await inspectMediaFile(base, media);
  if (!check.ok) return { outcome: 'gone' };
  const key = cacheKeyOf(await stat(check.absolute));
  const folder = copiesFolderOf(base, media);
  if (!force && isComplete(media, await readManifest(folder, key))) return { outcome: 'current' };
  await mkdir(folder, { recursive: true });
  if (!(await takeLock(folder))) return { outcome: 'busy' };
  try {
    // Another process may have finished the set while this one waited for the lock.
    let manifest = force ? null : await readManifest(folder, key);
    if (isComplete(media, manifest)) return { outcome: 'current' };
    if (!manifest) {
      const source = media.category === 'video' ? await videoPoster(check.absolute) : check.absolute;
      manifest = source
        ? await writeCopies(source, folder, key)
        : { key, width: 0, height: 0, widths: [], thumb: false, failed: 'no frame could be read from it' };
      await writeAtomically(path.join(folder, manifestName(key)), JSON.stringify(manifest));
    }
    if (media.category === 'video' && !manifest.failed) {
      const progress = keepingLock(folder, onProgress);
      manifest = {
        ...manifest,
        ...(await writeVideoCopies(check.absolute, manifest.width, folder, key, progress)),
      };
      await writeAtomically(path.join(folder, manifestName(key)), JSON.stringify(manifest));
    }
    await removeOtherVersions(folder, key);
    return { outcome: manifest.failed ? 'unreadable' : 'made', note: manifest.videoNote };
  } finally {
    await rm(path.join(folder, LOCK), { force: true });
  }
}

/** Passes progress on, and touches the lock now and then, so that no one takes it for stale. */
function keepingLock(folder: string, onProgress?: () => void): () => void {
  let touched = Date.now();
  return () => {
    onProgress?.();
    if (Date.now() - touched < LOCK_TOUCH_MS) return;
    touched = Date.now();
    const now = new Date();
    void utimes(path.join(folder, LOCK), now, now).catch(() => {});
  };
}

async function writeCopies(source: string | Buffer, folder: string, key: string): Promise<CopiesManifest> {
  const sharp = await loadSharp();
  const options: SharpOptions = { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' };
  let meta: Awaited<ReturnType<Sharp['metadata']>>;
  try {
    meta = await sharp(source, options).metadata();
  } catch (error) {
    return { key, width: 0, height: 0, widths: [], thumb: false, failed: (error as Error).message };
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  // An animated WebP would lose its frames: like a GIF it is served as it is; its thumbnail shows its first frame.
  const widths = (meta.pages ?? 1) > 1 ? [] : copyWidthsFor(width);
  const largest = Math.max(...widths, Math.min(THUMBNAIL_WIDTH, width));
  try {
    // Decoded once, at the largest size needed (JPEG shrinks while decoding); the rest come from it.
    const { data, info } = await sharp(source, options)
      .resize({ width: largest, withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    for (const w of [...widths].reverse()) {
      const image = sharp(data, raw);
      if (w < info.width) image.resize({ width: w });
      await writeAtomically(
        path.join(folder, copyFileName(key, w)),
        await image.webp({ quality: COPY_QUALITY }).toBuffer(),
      );
    }
    const thumbnail = await sharp(data, raw)
      .resize({ width: Math.min(THUMBNAIL_WIDTH, info.width) })
      .webp({ quality: THUMBNAIL_QUALITY })
      .toBuffer();
    await writeAtomically(path.join(folder, copyFileName(key, 'thumb')), thumbnail);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error; // the disk, not the picture
    return { key, width, height, widths: [], thumb: false, failed: (error as Error).message };
  }
  return { key, width, height, widths, thumb: true };
}

/**
 * A video's H.264 copies, each encoded under a temporary name and renamed into place once whole;
 * none, with a note saying why, when ffmpeg cannot make them or the video is too long.
 */
async function writeVideoCopies(
  file: string,
  width: number,
  folder: string,
  key: string,
  onProgress: () => void,
): Promise<Pick<CopiesManifest, 'videoWidths' | 'videoNote'>> {
  const widths = videoCopyWidthsFor(width);
  if (widths.length === 0) return { videoWidths: [] };
  const refusal = await whyNoVideoCopy(file);
  if (refusal) return { videoWidths: [], videoNote: refusal };
  for (const w of widths) {
    const target = path.join(folder, videoCopyFileName(key, w));
    const temp = temporaryNameOf(target);
    try {
      const failure = await encodeVideoCopy(file, w, temp, onProgress);
      if (failure) return { videoWidths: [], videoNote: `ffmpeg could not copy it (${failure})` };
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }
  return { videoWidths: widths };
}

/** Hidden and of another extension: never served, and removed with the leftovers of an interrupted build. */
const temporaryNameOf = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);

/** A temporary name, then a rename: readers see the whole file or none. */
async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  const temp = temporaryNameOf(file);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** The copies of earlier versions of the original (and leftovers of an interrupted build). */
async function removeOtherVersions(folder: string, key: string): Promise<void> {
  for (const name of await readdir(folder)) {
    if (name === LOCK || name.startsWith(`${key}-`) || name === manifestName(key)) continue;
    await rm(path.join(folder, name), { force: true });
  }
}

/** An exclusive create: one holder per folder, across processes and machines sharing the disk. */
async function takeLock(folder: string): Promise<boolean> {
  const lock = path.join(folder, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await (await open(lock, 'wx')).close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(lock).catch(() => null);
      if (info && Date.now() - info.mtimeMs < STALE_LOCK_MS) return false;
      await rm(lock, { force: true });
    }
  }
  return false;
}
