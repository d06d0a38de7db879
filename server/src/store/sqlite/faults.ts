import Database from 'better-sqlite3';
import { AppError } from '../../lib/app-error';
import { DuplicateKeyError } from '../store';

/**
 * SQLite's refusals as the product's answers. A refused statement has changed nothing (its
 * transaction is rolled back), so each answer can say plainly that nothing was saved.
 */
export function storeFault(error: unknown, dir: string): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const { code } = error;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // "UNIQUE constraint failed: index 'users$email'" or "...: users.id"
    const field = /\$(\w+)'?$/.exec(error.message)?.[1] ?? (/\.id$/.test(error.message) ? '_id' : undefined);
    return new DuplicateKeyError(field);
  }
  if (code === 'SQLITE_FULL') {
    return new AppError(
      'STORAGE_FULL',
      `The disk holding the site's data is full (${dir}). Nothing was saved; free some space there and try again.`,
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new AppError(
      'UNAVAILABLE',
      `The site's data cannot be changed: the disk holding it is read-only (${dir}). Nothing was saved.`,
    );
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_BUSY') {
    return new AppError(
      'UNAVAILABLE',
      `The site's data could not be reached on disk (${dir}: ${code}). Nothing was saved; try again shortly.`,
    );
  }
  return error;
}
