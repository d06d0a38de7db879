import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../lib/process-alive';

/** Lock files this process holds, so that opening the same folder twice here fails loudly. */
const held = new Set<string>();

const lockPath = (dir: string) => path.join(dir, '.lock');
const ownerOf = async (file: string) => Number((await readFile(file, 'utf8').catch(() => '')).trim());

/**
 * The id of another live process that holds the embedded store in `dir` (a `db` folder), or null.
 * The lock below takes over a lock without one; `npm run db:copy` refuses to copy data that a
 * running server may still be changing.
 */
export async function lockOwner(dir: string): Promise<number | null> {
  const owner = await ownerOf(lockPath(dir));
  if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid) return null;
  return isProcessAlive(owner) ? owner : null;
}

/**
 * The embedded store's files may be open in one process only: two processes appending to the
 * same files would lose writes. `<dir>/.lock` holds the owner's pid; a lock left by a process
 * that no longer runs (killed, crashed) is taken over. Another live owner is waited for up to
 * `waitMs` (a restart hands the store over this way), then refused with a message saying who.
 */
export async function lockEmbeddedStore(dir: string, waitMs = 5000): Promise<() => Promise<void>> {
  const file = lockPath(dir);
  if (held.has(file)) throw new Error(`The embedded database in ${dir} is already open in this process.`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      held.add(file);
      return async () => {
        held.delete(file);
        // Best effort: on a disk that turned read-only the file stays, and the next start takes it over (its pid is gone).
        if ((await ownerOf(file)) === process.pid) await rm(file, { force: true }).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await lockOwner(dir);
    // No live owner: a crash's leftover, or our own pid from an earlier life of it (a container restart).
    if (owner === null) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${owner}. Stop that process first ` +
          `(or delete ${file} if no server is running).`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
