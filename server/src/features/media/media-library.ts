import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_CATEGORIES, MEDIA_EXTENSIONS, type MediaCategory, type MediaFile } from '@common/media';
import { AppError } from '../../lib/app-error';

/**
 * Turns a requested base path into an absolute one, refusing anything outside the allowed
 * media roots (MEDIA_ROOTS, by default DATA_DIR). Symbolic links are resolved before the
 * check, so a link cannot lead out of a root either, even towards a folder that does not exist
 * yet (an upload would create it): the nearest existing ancestor is resolved and the rest of
 * the path is judged from there. Scan, upload, list and delete all come through here.
 */
export async function resolveBasePath(requested: string, mediaRoots: readonly string[]): Promise<string> {
  if (typeof requested !== 'string' || !requested.trim() || requested.includes('\0')) {
    throw new AppError('VALIDATION', 'A base path is required.');
  }
  const absolute = path.resolve(requested.trim());
  const real = await realpathOfNearest(absolute);
  const roots = await Promise.all(mediaRoots.map((root) => realpath(root).catch(() => root)));
  if (!roots.some((root) => isInside(real, root))) {
    throw new AppError(
      'VALIDATION',
      `The base path must be inside an allowed media folder (${mediaRoots.join(', ')}). Change MEDIA_ROOTS to allow others.`,
    );
  }
  return absolute;
}

/** realpath of `absolute`, or of its nearest existing ancestor with the missing rest appended. */
async function realpathOfNearest(absolute: string): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const parent = path.dirname(current);
      // Anything but "not there" (a file in the way, no permission) is judged as it is written.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The category a file name belongs to in `folder`, judged by its extension; null when it fits none. */
function categoryOf(fileName: string, folder: MediaCategory): MediaCategory | null {
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

/** A library path split into its folder and file name. */
export interface MediaPath {
  category: MediaCategory;
  name: string;
}

const MEDIA_PATH = /^(image|video|audio)\/([^/\\]+)$/;

/**
 * Accepts only the canonical form of a library path, `<category>/<file>`, exactly as the file
 * lists give it out: no `..`, no absolute paths, no backslashes, no control characters, no
 * hidden (or in-progress upload) files, and an extension that fits the folder. Nothing is
 * decoded here, so `%2e%2e` stays a harmless literal name.
 */
export function parseMediaPath(relative: unknown): MediaPath | null {
  if (typeof relative !== 'string' || relative.length > 1024) return null;
  const match = MEDIA_PATH.exec(relative);
  if (!match) return null;
  const category = match[1] as MediaCategory;
  const name = match[2]!;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (name.startsWith('.') || /[\x00-\x1f\x7f]/.test(name)) return null;
  return categoryOf(name, category) ? { category, name } : null;
}

export type MediaFileCheck =
  | { ok: true; absolute: string }
  | { ok: false; problem: 'not found' | 'not a regular file' | 'outside the library' };

/**
 * Where a library file is, checked: it must be a regular file that really lives inside
 * `basePath`. Symbolic links (the file itself, or a category folder linking elsewhere) are never
 * followed out of the library.
 */
export function inspectMediaFile(basePath: string, media: MediaPath): Promise<MediaFileCheck> {
  return inspectLibraryFile(basePath, path.join(basePath, media.category, media.name));
}

/** The same check for any file under `basePath` (the copies of pictures too). */
export async function inspectLibraryFile(basePath: string, absolute: string): Promise<MediaFileCheck> {
  const info = await lstat(absolute).catch(() => null);
  if (!info) return { ok: false, problem: 'not found' };
  if (!info.isFile()) return { ok: false, problem: 'not a regular file' };
  const [realBase, realFile] = await Promise.all([
    realpath(basePath).catch(() => null),
    realpath(absolute).catch(() => null),
  ]);
  if (!realBase || !realFile || !isInside(realFile, realBase))
    return { ok: false, problem: 'outside the library' };
  return { ok: true, absolute };
}

/**
 * Makes sure `<basePath>/<category>` exists as a real folder (not a link pointing elsewhere)
 * and returns it; uploads are written only into folders that pass this check.
 */
export async function ensureCategoryFolder(basePath: string, category: MediaCategory): Promise<string> {
  const folder = path.join(basePath, category);
  await mkdir(folder, { recursive: true });
  const info = await lstat(folder);
  if (!info.isDirectory()) {
    throw new AppError('VALIDATION', `The ${category} folder of the library is not a plain folder.`);
  }
  return folder;
}

/** Long past any real upload: a temporary file this old was left by a server that stopped mid-upload. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Removes temporary upload files that a crash or power cut left behind in `folder`. */
export async function removeStaleUploads(folder: string, now = Date.now()): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((n) => /^\.upload-[\w-]+\.part$/.test(n))) {
    const info = await lstat(path.join(folder, name)).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > STALE_UPLOAD_MS)
      await rm(path.join(folder, name), { force: true });
  }
}
