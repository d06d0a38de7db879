import { ApiError } from '../../lib/api-client';

/** The server's own words when it gave some, else the form's plain fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}
