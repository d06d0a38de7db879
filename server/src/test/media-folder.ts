import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Fills the media folder of a test app's DATA_DIR (`dataDir`/media, the default library) with
 * `files`: each path, relative to the library (`image/one.png`), written with its content, its
 * folder made as needed. A list of paths gets a placeholder content, for tests that only need the
 * names. Answers the library's folder.
 */
export async function makeMediaFolder(
  dataDir: string,
  files: Record<string, Buffer | string> | string[],
): Promise<string> {
  const base = path.join(dataDir, 'media');
  const entries = Array.isArray(files) ? files.map((file) => [file, 'x'] as const) : Object.entries(files);
  for (const [file, content] of entries) {
    await mkdir(path.dirname(path.join(base, file)), { recursive: true });
    await writeFile(path.join(base, file), content);
  }
  return base;
}
