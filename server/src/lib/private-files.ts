import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The server's umask: every file it (or a program it runs, such as nginx) creates is readable by
 * its owner only (0600), every folder 0700. DATA_DIR holds the user database, live reset links
 * in the outbox, the signing key, settings and logs.
 */
export const PRIVATE_UMASK = 0o077;

/**
 * Folders that nginx's worker processes (user `nobody` when the app runs as root) must pass
 * through to reach their temporary folders: others may enter them, never list them.
 */
export const TRAVERSE_ONLY = 0o711;

/**
 * Applies the umask for the rest of the process and brings what an older version left readable
 * by others into line: files 0600, folders 0700, `passable` folders 0711. Folders in `skip` (the
 * media library, published anyway; nginx's own temporary folders) are left as they are.
 */
export async function makeDataDirPrivate(
  dataDir: string,
  { passable = [], skip = [] }: { passable?: string[]; skip?: string[] } = {},
): Promise<void> {
  process.umask(PRIVATE_UMASK);
  const open = new Set(passable.map((folder) => path.resolve(folder)));
  const skipped = new Set(skip.map((folder) => path.resolve(folder)));
  async function tighten(target: string, isFolder: boolean, mode: number): Promise<void> {
    const wanted = isFolder ? (open.has(target) ? TRAVERSE_ONLY : 0o700) : mode & 0o700;
    if ((mode & 0o777) !== wanted) await chmod(target, wanted);
  }
  async function walk(folder: string): Promise<void> {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const target = path.join(folder, entry.name);
      if (skipped.has(target) || entry.isSymbolicLink()) continue;
      const info = await lstat(target).catch(() => null);
      if (!info) continue;
      await tighten(target, info.isDirectory(), info.mode);
      if (info.isDirectory()) await walk(target);
    }
  }
  const root = path.resolve(dataDir);
  const info = await lstat(root);
  await tighten(root, true, info.mode);
  await walk(root);
}
