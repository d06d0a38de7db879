import { type ComponentType, lazy, useEffect, useState } from 'react';

export type Page = ComponentType & { preload: () => Promise<void> };

/**
 * A page that is its own chunk, downloaded when its route is first shown, so that a page loads
 * only the code it needs. Once its code is here (shown before, or preloaded) it renders at once:
 * a lazy component would still suspend for a moment on its first render, and React holds back
 * the reveal of a boundary that suspended (about 300 ms per nested page), a blank pause.
 */
export function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Page {
  let loaded: ComponentType | undefined;
  const preload = async () => {
    loaded ??= pick(await load());
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  const Page = () => {
    // Chosen once per mount: switching from Lazy to the loaded page later would remount it.
    const [Shown] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Shown />;
  };
  return Object.assign(Page, { preload });
}

/** The pages each address shows, registered once by the routes. */
const preloads = new Map<string, Page[]>();

export function registerPreloads(byPath: Record<string, Page[]>): void {
  for (const [pathname, pages] of Object.entries(byPath)) preloads.set(pathname, pages);
}

/**
 * Fetches the code of the page at `pathname` before navigating to it (nothing for an address
 * not registered). Never fails: the route itself shows a page that cannot load. Kept here, with
 * no imports of the routes, so that pages can call it without tying their chunks to the entry.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  await Promise.all((preloads.get(pathname) ?? []).map((page) => page.preload())).catch(() => undefined);
}

/** What shows that a link is about to be followed: a pointer on it, keyboard focus, a touch. */
const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

/**
 * Preloads the code behind a same-site link as soon as someone shows the intent to follow it,
 * usually a few hundred milliseconds before the click. One listener for the whole document.
 */
export function usePreloadOnIntent(preload: (pathname: string) => unknown = preloadRoute): void {
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement && link.origin === window.location.origin)
        void preload(link.pathname);
    };
    for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { passive: true });
    return () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent);
    };
  }, [preload]);
}
