import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Makes the write-ahead log durable from outside SQLite: an fsync of the `-wal` file, in libuv's
 * thread pool, so the event loop goes on meanwhile. fsync flushes the file (its inode), whichever
 * descriptor wrote to it. The log stays the same file while this connection is open: SQLite
 * removes it only when the last connection to the database closes.
 */
export class LogSync {
  private fd: number | null = null;
  private pending = 0;
  private closing = false;

  constructor(private readonly walFile: string) {}

  /** Calls back once everything written to the log so far is on stable storage. */
  sync(done: (error: Error | null) => void): void {
    let fd: number;
    try {
      fd = this.open();
    } catch (error) {
      done(asSqliteError(error as NodeJS.ErrnoException));
      return;
    }
    this.pending += 1;
    fsync(fd, (error) => {
      this.pending -= 1;
      if (this.closing && this.pending === 0) this.close();
      done(error ? asSqliteError(error) : null);
    });
  }

  /** The same, waiting on the spot (the store is closing). */
  syncNow(): void {
    try {
      fsyncSync(this.open());
    } catch (error) {
      throw asSqliteError(error as NodeJS.ErrnoException);
    }
  }

  /** Closes the descriptor, once the fsyncs under way have returned. */
  close(): void {
    this.closing = true;
    if (this.pending > 0 || this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private open(): number {
    if (this.closing) throw Object.assign(new Error('The store is closed'), { code: 'EBADF' });
    this.fd ??= openSync(this.walFile, 'r');
    return this.fd;
  }
}

/** A failed fsync as SQLite's own refusal would be, for faults.ts to answer. */
function asSqliteError(error: NodeJS.ErrnoException): Error {
  const code = error.code === 'ENOSPC' || error.code === 'EDQUOT' ? 'SQLITE_FULL' : 'SQLITE_IOERR_FSYNC';
  return new Database.SqliteError(`The log could not be written to disk: ${error.message}`, code);
}
