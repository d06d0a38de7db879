import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Folders nginx must never publish, whatever is typed. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev', '/etc', '/boot', '/run'];

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

const real = (folder: string) => realpath(folder).catch(() => path.resolve(folder));

/** Where a static root may be: the built web client, or a folder inside a media root. */
export interface StaticRootRules {
  clientDistDir: string;
  mediaRoots: readonly string[];
  dataDir: string;
}

/**
 * Whatever is in the static root is public, so it is an allow-list: the built web client (or a
 * folder inside it), or a folder inside one of MEDIA_ROOTS, which hold only what is published
 * anyway. Never the app's data folder, a folder inside it or one holding it (the signing key and
 * the user database live there), nor a system folder. Links are followed before checking.
 * Returns what is wrong, or null.
 */
export async function checkStaticRoot(root: string, rules: StaticRootRules): Promise<string | null> {
  let resolved: string;
  try {
    resolved = await realpath(root);
    if (!(await stat(resolved)).isDirectory()) return 'must be a folder, not a file';
  } catch {
    return `must be an existing folder (${root} was not found)`;
  }
  if (resolved === '/' || SYSTEM_FOLDERS.some((folder) => within(resolved, folder))) {
    return 'may not be the filesystem root or a system folder';
  }
  const data = await real(rules.dataDir);
  if (within(resolved, data) || within(data, resolved)) {
    return "may not be or hold the app's data folder: it keeps the sign-in key and the user database";
  }
  if (within(resolved, await real(rules.clientDistDir))) return null;
  for (const mediaRoot of rules.mediaRoots) {
    const folder = await real(mediaRoot);
    if (within(resolved, folder)) return null;
  }
  return `must be the built web client (${rules.clientDistDir}) or a folder inside a media root (${rules.mediaRoots.join(', ')})`;
}
