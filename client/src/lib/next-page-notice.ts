const KEY = 'next-page-notice';

/**
 * The public pages' one way of saying why the person landed where they did (signed out by the
 * server, account made, account deleted): one sentence left for the next page, which says it
 * once. Kept for the tab (sessionStorage), so it survives a full page load but not a reload of
 * the page that said it.
 */
export function leaveNotice(text: string): void {
  try {
    sessionStorage.setItem(KEY, text);
  } catch {
    // Storage refused (private mode): the next page then says nothing, which is still safe.
  }
}

/** The sentence left for this page, if any; it is gone once taken. */
export function takeNotice(): string | null {
  try {
    const text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return text;
  } catch {
    return null;
  }
}
