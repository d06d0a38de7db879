import { constants } from 'node:fs';
import { access, mkdir, open, rm, statfs } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';

/**
 * A start-up failure told in one line: the path, the reason in plain words, what to do. The
 * server exits with FOLDER_EXIT_CODE (process/protocol.ts), which the supervisor does not retry.
 */
export class StartupError extends Error {}

function whoAmI(): string {
  try {
    const { username, uid } = userInfo();
    return `${username} (uid ${uid})`;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** The reason a file-system call failed, in plain words, and what to do about it. */
export function folderProblem(
  error: unknown,
  folder: string,
  setting: string,
): { reason: string; fix: string } {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EROFS':
      return {
        reason: 'is on a read-only file system',
        fix: `remount it read-write, or set ${setting} to a folder on a writable disk`,
      };
    case 'EACCES':
    case 'EPERM':
      return {
        reason: `cannot be read or written: permission denied for user ${whoAmI()}`,
        fix: `give that user write access (for example: chown -R ${userInfo().username} ${folder}), or set ${setting} to a folder it owns`,
      };
    case 'ENOSPC':
    case 'EDQUOT':
      return {
        reason: 'is on a full disk',
        fix: 'free some space on that disk, or move the folder to a bigger one',
      };
    case 'ENOTDIR':
    case 'EEXIST':
      return {
        reason: 'is (or lies inside) a file, not a folder',
        fix: `move that file away, or set ${setting} to a folder`,
      };
    case 'ENOENT':
      return {
        reason: 'does not exist and cannot be created',
        fix: `create it, or set ${setting} to an existing folder`,
      };
    default:
      return {
        reason: `cannot be used (${(error as Error)?.message ?? String(error)})`,
        fix: `check the folder, or set ${setting} to another one`,
      };
  }
}

/** The one-line message for a folder the server cannot use. */
export function folderMessage(what: string, folder: string, setting: string, error: unknown): string {
  const { reason, fix } = folderProblem(error, folder, setting);
  return `Cannot use the ${what} ${folder}: it ${reason}. To fix: ${fix}.`;
}

/**
 * Makes sure the server can keep files in `folder`: creates it when missing, then writes, flushes
 * and removes a small probe file (a full disk refuses even that). Throws a StartupError whose
 * message is one plain line naming the folder, the reason and the fix.
 */
export async function checkWritableFolder(folder: string, what: string, setting: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const probe = path.join(folder, `.write-check-${process.pid}`);
    const handle = await open(probe, 'w', 0o600);
    try {
      await handle.writeFile(Buffer.alloc(4096));
      await handle.sync();
    } finally {
      await handle.close();
      await rm(probe, { force: true });
    }
  } catch (error) {
    throw new StartupError(folderMessage(what, folder, setting, await realCause(folder, error)));
  }
}

/**
 * mkdir on a read-only disk may answer ENOENT for a missing parent; the nearest folder that exists
 * tells the real reason (read-only, permission denied).
 */
export async function realCause(folder: string, error: unknown): Promise<unknown> {
  if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') return error;
  const dir = await nearestExisting(path.dirname(folder));
  if (dir === null) return error;
  try {
    await access(dir, constants.W_OK);
    return error;
  } catch (cause) {
    return cause;
  }
}

/** `folder` itself or its nearest ancestor that exists; null when not even the root does. */
async function nearestExisting(folder: string): Promise<string | null> {
  let dir = folder;
  for (;;) {
    try {
      await access(dir, constants.F_OK);
      return dir;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

/**
 * Why files could not be written into `folder` (or the folder created), without writing anything:
 * the nearest existing folder's write access (read-only disk, permission) and its free space.
 * Null when it looks writable.
 */
export async function folderRefusal(folder: string): Promise<NodeJS.ErrnoException | null> {
  const dir = await nearestExisting(folder);
  if (dir === null) return null;
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  const space = await statfs(dir).catch(() => null);
  if (space && space.bavail === 0) return Object.assign(new Error('no space left'), { code: 'ENOSPC' });
  return null;
}

/**
 * The one-line StartupError for a folder the store must write and cannot (`what` names it for a
 * person, e.g. "database folder"), with the real reason behind mkdir's own error code.
 */
export async function unwritableFolder(what: string, folder: string, error: unknown): Promise<StartupError> {
  return new StartupError(folderMessage(what, folder, 'DATA_DIR', await realCause(folder, error)));
}
