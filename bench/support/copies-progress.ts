import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseMediaPath } from '../../server/src/features/media/media-library';
import { readCopies } from '../../server/src/features/media/picture-copies';
import { childPids, type Product, residentMb } from './product';

/** Waits until every photo (and the video) has its copies; answers the ms waited. */
export async function copiesReady(base: string, names: string[]): Promise<number> {
  const started = performance.now();
  for (;;) {
    const manifests = await Promise.all(names.map((name) => readCopies(base, parseMediaPath(name)!)));
    if (manifests.every(Boolean)) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error('the copies were not made within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Peak resident memory, while `work` runs, of each server process and of the process that makes
 * the copies (a child of one of them, living while there is work).
 */
export async function peakRss(product: Product, work: () => Promise<number>) {
  const pids = await product.workerPids();
  const before = await Promise.all(pids.map(residentMb));
  const peak = [...before];
  let child = 0;
  const timer = setInterval(() => {
    pids.forEach((pid, i) => void residentMb(pid).then((mb) => (peak[i] = Math.max(peak[i]!, mb))));
    void Promise.all(pids.map(childPids)).then(async (lists) => {
      for (const pid of lists.flat()) child = Math.max(child, await residentMb(pid));
    });
  }, 20);
  try {
    const ms = await work();
    return { ms, before, peak, child: () => child };
  } finally {
    clearInterval(timer);
  }
}

/** Bytes of every file under `folder`. */
export async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.size)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
