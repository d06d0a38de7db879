// Makes (or with --force, remakes) the resized copies and thumbnails of every picture of the
// media library, and the posters and phone-sized copies of its videos, one file at a time; safe
// while the server runs.
// Usage: npm run media:copies [-- --base DIR] [-- --force]
//   --base   the library's folder (holding image/ and video/); by default MEDIA_DIR, itself
//            DATA_DIR/media unless set. Pass it when the console's Background Manager uses another.
//   --force  remake every copy, even those that are current (after a change of widths or quality)
import { readdir, stat } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getsCopies } from '@common/media';
import { COPIES_FOLDER, pruneOrphanCopies } from '../server/src/features/media/copies/layout';
import { type MakeOutcome, makeCopies } from '../server/src/features/media/copies/maker';
import { ffmpegAvailable } from '../server/src/features/media/copies/poster';
import { listMedia, parseMediaPath, resolveBasePath } from '../server/src/features/media/media-library';
import { loadConfig } from '../server/src/settings/config';

// Safe while the server runs: like its copies process, this one (and the ffmpeg it starts) lets
// the visitors' requests have the cores first.
try {
  setPriority(19);
} catch {
  // Not allowed here: run at the usual priority.
}

const { values } = parseArgs({
  options: { base: { type: 'string' }, force: { type: 'boolean', default: false } },
});
const config = loadConfig();
const base = await resolveBasePath(values.base ?? config.mediaDir, config.mediaRoots).catch(
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);

const library = await listMedia(base);
const files = library.filter((file) => getsCopies(file.category, file.name));
if (files.some((file) => file.category === 'video') && !(await ffmpegAvailable()))
  console.warn(
    'ffmpeg is not installed: videos get no poster and no copy for phones (apt-get install ffmpeg, then run this again).',
  );
const pruned = await pruneOrphanCopies(base, new Set(library.map((file) => file.path)));
console.log(
  `${values.force ? 'Remaking' : 'Making'} the copies of ${files.length} file(s) in ${base}${pruned ? ` (removed the copies of ${pruned} file(s) no longer there)` : ''}`,
);

const counts: Partial<Record<MakeOutcome | 'error', number>> = {};
const started = performance.now();
for (const file of files) {
  const fileStarted = performance.now();
  let outcome: MakeOutcome | 'error';
  let note: string | undefined;
  try {
    ({ outcome, note } = await makeCopies(base, parseMediaPath(file.path)!, { force: values.force }));
  } catch (error) {
    outcome = 'error';
    console.error(`  ${file.path}: ${(error as Error).message}`);
  }
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  console.log(
    `  ${file.path.padEnd(50)} ${outcome.padEnd(10)} ${Math.round(performance.now() - fileStarted)} ms${note ? ` (no copy for phones: ${note})` : ''}`,
  );
}

const originals = files.reduce((sum, file) => sum + file.size, 0);
const copies = await folderBytes(path.join(base, COPIES_FOLDER));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${Object.entries(counts)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ')}. Copies take ${mb(copies)} beside ${mb(originals)} of originals (${COPIES_FOLDER}/).`,
);
if (counts.error) process.exitCode = 1;

async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => stat(path.join(entry.parentPath, entry.name)).then((info) => info.size)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
