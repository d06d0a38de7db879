import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Creates a folder (and its parents) readable by the owner only. */
export async function ensurePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
}

/**
 * The one way the server writes a whole file (settings, nginx's files, the mail queue, the token
 * secret): a temp file beside the target, readable by the owner only (0600), flushed to the disk,
 * then renamed into place and the folder flushed. A crash or a full disk leaves the old file (or
 * none), never a half-written one, and the temp file is removed when the write fails. A missing
 * folder is made first (its mode from the process's umask, see lib/private-files.ts). With
 * `createOnly`, the temp file is hard-linked into place instead, which leaves a file another
 * process made meanwhile as it is (the caller reads theirs then).
 */
export async function writeFileDurably(
  file: string,
  data: string | Buffer,
  { createOnly = false } = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!createOnly) await rename(temp, file);
    else
      await link(temp, file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
  } finally {
    await rm(temp, { force: true });
  }
  await syncFolder(path.dirname(file));
}

/** Makes a rename or a new name in `folder` survive a power cut. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot sync a folder; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}
