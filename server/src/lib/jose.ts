let jose: Promise<typeof import('jose')> | undefined;

/**
 * The JWT library, loaded with the first token to sign or check rather than at start: a server
 * process that only serves pages and the slideshow never needs it (it cost about 40 ms of
 * start-up). Callers load it outside their try/catch: a library that cannot load is an error to
 * see, never an "invalid token".
 */
export function loadJose(): Promise<typeof import('jose')> {
  jose ??= import('jose');
  return jose;
}
