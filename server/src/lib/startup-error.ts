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

/** The message for a folder the server must be able to write and cannot. */
export function unwritableFolder(what: string, folder: string, error: unknown): StartupError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'does not exist and cannot be created'
      : code === 'EROFS'
        ? 'is on a read-only file system'
        : code === 'ENOSPC'
          ? 'is on a full disk'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be written by this user'
            : `cannot be used (${code ?? (error as Error).message})`;
  return new StartupError(
    `Cannot start: ${what} ${folder} ${reason}. Create it or make it writable for the user running the server (or set DATA_DIR to a folder that is), then start again.`,
  );
}
