/**
 * Where a person is sent back to on this site: after a checkout or the billing portal (the
 * payments calls' `returnPath`), and after signing in or joining from a page that asked them to
 * (`?next=` on /login and /join: a visitor about to buy a course comes back to it). The site's
 * own pages only, never a full address, so neither can send someone elsewhere. Apart from the
 * request schemas so that the public pages read it without loading zod.
 */
export const RETURN_PATH = /^\/(?:dashboard|account|courses(?:\/[A-Za-z0-9_-]{1,100}){0,3})$/;

/** The query parameter of /login and /join naming the page to come back to. */
export const NEXT_PARAM = 'next';

/** The page `?next=` names, when it is one a person may be sent back to; null otherwise. */
export function nextPageOf(params: URLSearchParams): string | null {
  const next = params.get(NEXT_PARAM);
  return next && RETURN_PATH.test(next) ? next : null;
}

/** `path` (/login, /join) with `?next=` when there is a page to come back to. */
export function withNextPage(path: string, next: string | null): string {
  return next ? `${path}?${new URLSearchParams({ [NEXT_PARAM]: next })}` : path;
}
