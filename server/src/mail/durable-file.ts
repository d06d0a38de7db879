import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Creates a folder (and its parents) readable by the owner only. */
export async function ensurePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
}

/**
 * Writes a whole file or nothing: a temp file beside the target, flushed to the disk, then renamed
 * into place. A crash or a full disk leaves the old file (or none), never a half-written one, and
 * the temp file is removed when the write fails.
 */
export async function writeFileDurably(file: string, data: string | Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
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
