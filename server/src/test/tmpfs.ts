import { execFile } from 'node:child_process';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MINIMAL_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/**
 * Whether drills that mount a small tmpfs (disk full, read-only) can run. They need root; without
 * it they are skipped with a message, except on CI, where the skip fails the run.
 */
export function canMount(what: string): boolean {
  if (process.getuid?.() === 0) return true;
  const message = `${what} need root (they mount a tmpfs).`;
  if (process.env.CI === 'true') throw new Error(`${message} CI runs as root: run the tests as root.`);
  console.warn(`${message} Skipped.`);
  return false;
}

/** Mounts a tmpfs of `size` (e.g. "1m") on `dir`; the answer unmounts it (call it in `finally`). */
export async function mountTmpfs(dir: string, size: string, readOnly = false): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const options = `size=${size}${readOnly ? ',ro' : ''}`;
  await run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { env: MINIMAL_ENV });
  return async () => {
    await run('umount', ['-l', dir], { env: MINIMAL_ENV });
  };
}

/** Fills the file system holding `dir` until it has no byte left; answers the filler's path. */
export async function fillDisk(dir: string): Promise<string> {
  const filler = path.join(dir, 'filler.bin');
  const handle = await open(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      try {
        await handle.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // Smaller and smaller pieces, down to the last byte.
        for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
          try {
            for (;;) await handle.write(Buffer.alloc(size, 1));
          } catch (inner) {
            if ((inner as NodeJS.ErrnoException).code !== 'ENOSPC') throw inner;
          }
        }
        return filler;
      }
    }
  } finally {
    await handle.close();
  }
}
