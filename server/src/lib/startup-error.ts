import { rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A start that cannot succeed until a person changes something (a folder that cannot be
 * written, a damaged file). Its message is one plain line naming what and where and what to
 * do; the entry point prints just that line and exits with STARTUP_EXIT_CODE, which tells the
 * supervisor not to start it again.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** EX_CONFIG, as for a bad environment: restarting would fail the same way. */
export const STARTUP_EXIT_CODE = 78;

/**
 * The one line for a folder the server must be able to write and cannot (`what` names it for a
 * person, e.g. "the data folder (DATA_DIR)"). The reason is found by looking at the folder, or
 * its nearest existing parent, since mkdir's own error code often hides it.
 */
export function unwritableFolder(what: string, folder: string, error: unknown): StartupError {
  return new StartupError(
    `Cannot start: ${what} ${folder} ${reasonFor(folder, error)}. Create it or make it writable for the user running the server (or set DATA_DIR to a folder that is), then start again.`,
  );
}

function reasonFor(folder: string, error: unknown): string {
  let existing = folder;
  while (!exists(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const missing = existing !== folder;
  if (!statSync(existing).isDirectory()) return 'does not exist and cannot be created';
  // Trying a write says more than access(): it sees a file system that turned read-only, or a full one.
  const probe = path.join(existing, `.write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (refused) {
    const code = (refused as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'is on a read-only file system';
    if (code === 'ENOSPC') return 'is on a full disk';
    if (code === 'EACCES' || code === 'EPERM')
      return missing ? 'cannot be created by this user' : 'cannot be written by this user';
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'is on a full disk';
  if (code === 'EROFS') return 'is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be written by this user';
  return missing
    ? 'does not exist and cannot be created'
    : `cannot be used (${code ?? (error as Error).message})`;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
