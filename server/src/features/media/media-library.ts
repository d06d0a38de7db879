import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  MEDIA_CATEGORIES,
  MEDIA_EXTENSIONS,
  type MediaCategory,
  type MediaFile,
} from '../../../../common/media';
import { AppError } from '../../lib/app-error';

/** The library's default home when no base path has been chosen: `<DATA_DIR>/media`. */
export function defaultMediaBasePath(dataDir: string): string {
  return path.join(dataDir, 'media');
}

/**
 * Turns a requested base path into an absolute one, refusing anything outside the allowed
 * media roots (MEDIA_ROOTS, by default DATA_DIR). Symbolic links are resolved before the
 * check, so a link cannot lead out of a root either.
 */
export async function resolveBasePath(requested: string, mediaRoots: readonly string[]): Promise<string> {
  if (typeof requested !== 'string' || !requested.trim() || requested.includes('\0')) {
    throw new AppError('VALIDATION', 'A base path is required.');
  }
  const absolute = path.resolve(requested.trim());
  const real = await realpath(absolute).catch(() => absolute);
  const roots = await Promise.all(mediaRoots.map((root) => realpath(root).catch(() => root)));
  if (!roots.some((root) => isInside(real, root))) {
    throw new AppError(
      'VALIDATION',
      `The base path must be inside an allowed media folder (${mediaRoots.join(', ')}). Change MEDIA_ROOTS to allow others.`,
    );
  }
  return absolute;
}

export function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The category a file name belongs to in `folder`, judged by its extension; null when it fits none. */
export function categoryOf(fileName: string, folder: MediaCategory): MediaCategory | null {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  return MEDIA_EXTENSIONS[folder].includes(extension) ? folder : null;
}

/**
 * Lists the library under `basePath`: files directly inside `image/`, `video/` and `audio/`
 * whose extension fits their folder, sorted by name. Hidden and temporary files are skipped.
 */
export async function listMedia(basePath: string, only?: MediaCategory): Promise<MediaFile[]> {
  const categories = only ? [only] : MEDIA_CATEGORIES;
  const lists = await Promise.all(
    categories.map(async (category) => {
      const folder = path.join(basePath, category);
      const entries: Dirent[] = await readdir(folder, { withFileTypes: true }).catch(() => []);
      const files = await Promise.all(
        entries
          .filter(
            (entry) => entry.isFile() && !entry.name.startsWith('.') && categoryOf(entry.name, category),
          )
          .map(async (entry): Promise<MediaFile | null> => {
            const info = await stat(path.join(folder, entry.name)).catch(() => null);
            return info
              ? { path: `${category}/${entry.name}`, name: entry.name, size: info.size, category }
              : null;
          }),
      );
      return files
        .filter((file): file is MediaFile => file !== null)
        .sort((a, b) => a.name.localeCompare(b.name));
    }),
  );
  return lists.flat();
}
