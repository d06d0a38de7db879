import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Folders nginx must never publish, whatever is typed. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev', '/etc', '/boot', '/run'];

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/**
 * Whatever is in the static root is public. It must be an existing folder, and neither a system
 * folder nor the app's data folder (which holds the signing key and the user database).
 * Returns what is wrong, or null.
 */
export async function checkStaticRoot(root: string, dataDir: string): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(root);
    if (!(await stat(real)).isDirectory()) return 'must be a folder, not a file';
  } catch {
    return `must be an existing folder (${root} was not found)`;
  }
  if (real === '/' || SYSTEM_FOLDERS.some((folder) => within(real, folder))) {
    return 'may not be the filesystem root or a system folder';
  }
  const data = await realpath(dataDir).catch(() => path.resolve(dataDir));
  if (within(real, data) || within(data, real)) {
    return "may not be or hold the app's data folder: it keeps the sign-in key and the user database";
  }
  return null;
}
