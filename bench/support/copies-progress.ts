import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isComplete, readCopies } from '../../server/src/features/media/copies/layout';
import { parseMediaPath } from '../../server/src/features/media/media-library';
import { childPids, type Product, residentMb } from './product';

/** Waits until every photo (and the video: its poster and its copy) has its copies; answers the ms waited. */
export async function copiesReady(base: string, names: string[]): Promise<number> {
  const started = performance.now();
  for (;;) {
    const done = await Promise.all(
      names.map(async (name) => {
        const media = parseMediaPath(name)!;
        return isComplete(media, await readCopies(base, media));
      }),
    );
    if (done.every(Boolean)) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error('the copies were not made within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Peak resident memory, while `work` runs, of each server process and of the process that makes
 * the copies (a child of one of them, living while there is work), with the ffmpeg it runs for a
 * video, if any, added.
 */
export async function peakRss(product: Product, work: () => Promise<number>) {
  const pids = await product.workerPids();
  const before = await Promise.all(pids.map(residentMb));
  const peak = [...before];
  let child = 0;
  const timer = setInterval(() => {
    pids.forEach((pid, i) => void residentMb(pid).then((mb) => (peak[i] = Math.max(peak[i]!, mb))));
    void Promise.all(pids.map(childPids)).then(async (lists) => {
      for (const pid of lists.flat()) {
        const own = await residentMb(pid);
        const tools = await Promise.all((await childPids(pid)).map(residentMb));
        child = Math.max(child, own + tools.reduce((a, b) => a + b, 0));
      }
    });
  }, 20);
  try {
    const ms = await work();
    return { ms, before, peak, child: () => child };
  } finally {
    clearInterval(timer);
  }
}

/** Bytes of every file under `folder` (whose name ends with `ending`, if given). */
export async function folderBytes(folder: string, ending = ''): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((e) => e.isFile() && e.name.endsWith(ending))
      .map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.size)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
