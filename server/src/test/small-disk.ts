import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** A small tmpfs of its own (root only), for disk-full drills. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk is full. */
  fill(): Promise<void>;
  /** Removes the filler. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

export async function mountSmallDisk(sizeMb = 20): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(tmpdir(), 'small-disk-'));
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { env: ENV });
  const filler = path.join(dir, 'filler');
  return {
    dir,
    async fill() {
      const file = await open(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await file.close();
      }
    },
    free: () => rm(filler, { force: true }),
    async unmount() {
      await run('umount', ['-l', dir], { env: ENV }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An ext4 file system in a loop-mounted image (root only), which can be turned read-only under a running server. */
export interface LoopDisk {
  dir: string;
  /** Makes the mounted file system read-only at once, open files included (ext4's errors=remount-ro). */
  failReadOnly(): Promise<void>;
  /** Unmounts, checks and mounts it again writable (no process may have files open on it). */
  remountWritable(): Promise<void>;
  unmount(): Promise<void>;
}

export async function mountLoopDisk(sizeMb = 32): Promise<LoopDisk> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-disk-'));
  const image = `${dir}.img`;
  const file = await open(image, 'w');
  await file.truncate(sizeMb * 1024 * 1024);
  await file.close();
  await run('mkfs.ext4', ['-q', '-F', image], { env: ENV });
  const mount = () => run('mount', ['-o', 'loop,errors=remount-ro', image, dir], { env: ENV });
  await mount();
  const device = async () => (await run('findmnt', ['-n', '-o', 'SOURCE', dir], { env: ENV })).stdout.trim();
  return {
    dir,
    async failReadOnly() {
      await writeFile(`/sys/fs/ext4/${path.basename(await device())}/trigger_fs_error`, 'read-only drill');
      // ext4 may turn read-only from a work queue: wait until a write is refused.
      for (let i = 0; i < 100; i++) {
        try {
          await writeFile(path.join(dir, '.probe'), '');
          await rm(path.join(dir, '.probe'), { force: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EROFS') return;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${dir} did not turn read-only`);
    },
    async remountWritable() {
      await run('umount', [dir], { env: ENV });
      // e2fsck exits 1 when it repaired something (the error flag the drill set): that is success.
      await run('e2fsck', ['-fy', image], { env: ENV }).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error;
      });
      await mount();
    },
    async unmount() {
      await run('umount', ['-l', dir], { env: ENV }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      await rm(image, { force: true });
    },
  };
}
