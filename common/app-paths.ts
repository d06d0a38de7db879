import { PUBLIC_PAGES } from './public-pages.ts';

/**
 * Every path the web client has a page for (`:name` is one segment), the public pages first.
 * The server answers any other page address with the client's not-found page and status 404, so
 * a route added to client/src/app/router.tsx must be added here too (a test compares them).
 */
export const APP_PATHS: readonly string[] = [
  ...Object.values(PUBLIC_PAGES).map((page) => page.path),
  '/courses/:slug/lessons/:lessonId',
  '/dashboard',
  '/account',
  '/confirm-email',
  '/admin',
  '/admin/dashboard',
  '/admin/database/:dbName',
];

/** Whether the client has a page at `pathname` (no query string). */
export function isAppPath(pathname: string): boolean {
  const segments = pathname.split('/');
  return APP_PATHS.some((pattern) => {
    const parts = pattern.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))
    );
  });
}
