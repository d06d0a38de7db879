import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A note in the embedded store's folder saying which server process has it open, so that
 * `npm run db:copy` refuses to copy data that a running server may still be changing.
 */
const NOTE = 'in-use.pid';

const notePath = (dataDir: string) => path.join(dataDir, 'db', NOTE);

export async function markInUse(dataDir: string): Promise<() => Promise<void>> {
  await writeFile(notePath(dataDir), `${process.pid}\n`);
  return async () => {
    // Only our own note: a newer process may have written its own since.
    if ((await readFile(notePath(dataDir), 'utf8').catch(() => '')).trim() === String(process.pid)) {
      await rm(notePath(dataDir), { force: true });
    }
  };
}

/** The id of another live process that has the embedded store in `dataDir` open, or null. */
export async function inUseBy(dataDir: string): Promise<number | null> {
  const pid = Number((await readFile(notePath(dataDir), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return pid;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means "in use".
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
