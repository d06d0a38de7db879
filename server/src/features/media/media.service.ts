import path from 'node:path';
import { MEDIA_CATEGORIES, type MediaCategory, type MediaFile } from '@common/media';
import type { LastScan } from '@common/schemas/media';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { folderMessage, folderRefusal, realCause } from '../../lib/startup-error';
import { pruneOrphanCopies, readCopies, thumbnailUrlOf } from './copies/layout';
import type { CopiesQueue } from './copies/queue';
import {
  ensureCategoryFolder,
  listMedia,
  parseMediaPath,
  removeStaleUploads,
  resolveBasePath,
} from './media-library';
import type { MediaScansRepository } from './media-scans.repository';

export const MEDIA_FOLDER = 'media folder';
export const MEDIA_SETTING = 'the base path in Background Manager';

/** A file-system refusal while writing to the library, as a plain message instead of a 500. */
export async function mediaWriteError(error: unknown, base: string): Promise<AppError | null> {
  const where = (error as NodeJS.ErrnoException)?.path;
  // mkdir on a read-only disk answers ENOENT: the nearest existing folder tells the real reason.
  const cause = where ? await realCause(where, error) : error;
  const code = (cause as NodeJS.ErrnoException)?.code;
  if (!code || !['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR'].includes(code)) return null;
  const isFolder = (error as NodeJS.ErrnoException).syscall === 'mkdir';
  const folder = where ? (isFolder ? where : path.dirname(where)) : base;
  return new AppError(
    'UNAVAILABLE',
    `Nothing was uploaded. ${folderMessage(MEDIA_FOLDER, folder, MEDIA_SETTING, cause)}`,
  );
}

export const NO_BASE_PATH_MESSAGE = 'Please set a base path in Background Manager first.';

/** Listing and scanning the library; every base path passes the media-roots check first. */
export class MediaService {
  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'mediaFolder'>,
    private readonly scans: MediaScansRepository,
    private readonly pictures: CopiesQueue,
  ) {}

  /** The base path the Background Manager saved: the library that /media serves. */
  configuredBasePath(): Promise<string> {
    return this.ctx.mediaFolder.get();
  }

  /** The requested base path (or the configured one), made absolute and checked. */
  async resolveBase(requested?: string): Promise<string> {
    const chosen = requested ?? (await this.configuredBasePath());
    if (!chosen?.trim()) throw new AppError('VALIDATION', NO_BASE_PATH_MESSAGE);
    return resolveBasePath(chosen, this.ctx.config.mediaRoots);
  }

  async list(
    requested: string | undefined,
    category?: MediaCategory,
  ): Promise<{ files: MediaFile[]; timestamp: string | null }> {
    const base = await this.resolveBase(requested);
    const [files, last] = await Promise.all([listMedia(base, category), this.scans.last(base)]);
    return { files: await withThumbnails(base, files), timestamp: last?.timestamp ?? null };
  }

  /** Queues the copies of uploaded files; the upload's answer does not wait for them. */
  makeCopies(base: string, paths: readonly string[]): void {
    this.pictures.add(base, paths);
  }

  /** Counts the library (creating its folders on first use) and remembers when it was done. */
  async scan(requested: string | undefined): Promise<LastScan> {
    const base = await this.resolveBase(requested);
    for (const category of MEDIA_CATEGORIES) {
      await removeStaleUploads(await ensureCategoryFolder(base, category));
    }
    const files = await listMedia(base);
    const count = (category: MediaCategory) => files.filter((file) => file.category === category).length;
    const scan: LastScan = {
      timestamp: new Date().toISOString(),
      discoveries: {
        total: files.length,
        images: count('image'),
        videos: count('video'),
        audio: count('audio'),
      },
    };
    await this.scans.record(base, scan);
    // Files copied in or replaced by hand get their copies now; those of files gone go.
    await pruneOrphanCopies(base, new Set(files.map((file) => file.path)));
    this.pictures.add(
      base,
      files.map((file) => file.path),
    );
    return scan;
  }

  async lastScan(
    requested: string | undefined,
  ): Promise<{ basePath: string; lastScan: LastScan | null; folderProblem: string | null }> {
    const basePath = requested ?? (await this.configuredBasePath());
    const base = await this.resolveBase(basePath);
    return { basePath, lastScan: await this.scans.last(base), folderProblem: await this.folderProblem(base) };
  }

  /** Why uploads to the library would fail, in one plain line; null when its folders can be written. */
  async folderProblem(base?: string): Promise<string | null> {
    try {
      const root = base ?? (await this.resolveBase());
      for (const category of MEDIA_CATEGORIES) {
        const folder = path.join(root, category);
        const problem = await folderRefusal(folder);
        if (problem) return folderMessage(MEDIA_FOLDER, folder, MEDIA_SETTING, problem);
      }
      return null;
    } catch (error) {
      if (error instanceof AppError) return null; // no base path yet: said elsewhere
      throw error;
    }
  }
}

/** Each file with the URL of its thumbnail, where one has been made. */
function withThumbnails(base: string, files: MediaFile[]): Promise<MediaFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const media = parseMediaPath(file.path);
      const thumbnail = media && thumbnailUrlOf(media, await readCopies(base, media));
      return thumbnail ? { ...file, thumbnail } : file;
    }),
  );
}
