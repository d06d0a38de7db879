import { unlink } from 'node:fs/promises';
import type { DeleteResponse } from '@common/schemas/media';
import { AppError } from '../../lib/app-error';
import { removeCopies } from './copies/layout';
import { inspectMediaFile, type MediaPath, parseMediaPath } from './media-library';

type Summary = DeleteResponse['summary'];

/**
 * Deletes library files named by their paths relative to `basePath` (`image/sunset.jpg`), each
 * with its resized copies. Every path is checked before anything is deleted: one that could lead
 * anywhere else (`..`, an absolute path, a backslash, an encoded form) refuses the whole request.
 * Files that are missing, or are links or folders, are reported as failed and left alone.
 */
export async function deleteMedia(basePath: string, paths: readonly string[]): Promise<Summary> {
  const parsed: Array<{ path: string; media: MediaPath }> = [];
  for (const path of new Set(paths)) {
    const media = parseMediaPath(path);
    if (!media) {
      throw new AppError(
        'VALIDATION',
        `Nothing was deleted: "${printable(path)}" is not a file of the library (expected image/, video/ or audio/ followed by a file name).`,
      );
    }
    parsed.push({ path, media });
  }

  const summary: Summary = { deleted: 0, failed: [] };
  for (const { path, media } of parsed) {
    const check = await inspectMediaFile(basePath, media);
    if (!check.ok) {
      summary.failed.push({ path, reason: check.problem });
      continue;
    }
    try {
      await unlink(check.absolute);
      summary.deleted += 1;
      // Its resized copies go with it; one that resists is removed by the next scan.
      await removeCopies(basePath, media).catch(() => undefined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      summary.failed.push({ path, reason: code === 'ENOENT' ? 'not found' : 'could not be deleted' });
    }
  }
  return summary;
}

function printable(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is hidden
  return value.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 200);
}
