import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../../lib/process-alive';
import { StartupError } from '../../lib/startup-error';

/** Lock files this process holds, so that opening the same folder twice here fails loudly. */
const held = new Set<string>();

/** The lock file of the embedded store kept in `dir` (a `db` folder). */
export const lockPath = (dir: string) => path.join(dir, '.lock');
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
 * One server per DATA_DIR: `<dir>/.lock` holds the owner's pid, and a second server started on
 * the same folder is refused (two sites writing one database would each see the other's changes
 * appear from nowhere, and two imports of old files would clash). The workers of one `npm start`
 * are one site: they hold the lock under their supervisor's pid (`holder`), share it, and leave
 * it for the supervisor to remove when it stops. A lock left by a process that no longer runs
 * (killed, crashed) is taken over. Another live owner is waited for up to `waitMs`, then refused
 * with a message saying who. `joined` says the lock was already the site's (another worker runs).
 */
export async function lockEmbeddedStore(
  dir: string,
  { waitMs = 5000, holder = process.pid }: { waitMs?: number; holder?: number } = {},
): Promise<{ release: () => Promise<void>; joined: boolean }> {
  const file = lockPath(dir);
  if (held.has(file)) throw new Error(`The embedded database in ${dir} is already open in this process.`);
  const deadline = Date.now() + waitMs;
  const release = async () => {
    held.delete(file);
    // Best effort: on a disk that turned read-only the file stays, and the next start takes it over (its pid is gone).
    if (holder === process.pid && (await ownerOf(file)) === process.pid)
      await rm(file, { force: true }).catch(() => undefined);
  };
  for (;;) {
    try {
      await writeFile(file, `${holder}\n`, { flag: 'wx', mode: 0o600 });
      held.add(file);
      return { release, joined: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Another worker of the same supervisor took it first.
    if (holder !== process.pid && (await ownerOf(file)) === holder) {
      held.add(file);
      return { release, joined: true };
    }
    const owner = await lockOwner(dir);
    // No live owner: a crash's leftover, or our own pid from an earlier life of it (a container restart).
    if (owner === null) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      // A StartupError: starting again cannot help until that process stops, so the supervisor does not retry.
      throw new StartupError(
        `The embedded database in ${dir} is in use by process ${owner}. Stop that process first ` +
          `(or delete ${file} if no server is running).`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
