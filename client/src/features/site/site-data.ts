import {
  OWNER_PAGE_PATHS,
  type OwnerPageName,
  type OwnerPageView,
  SITE_DATA_ID,
  SITE_DEFAULTS,
  SITE_MARKS,
  type SiteData,
  type SitePublic,
} from '@common/site';
import { useSyncExternalStore } from 'react';

/**
 * The site's identity as the page arrived with it (the server inlines it in every page:
 * server/src/features/site/site-html.ts), kept here for the whole visit. The build draws the
 * public pages with the marks in place of the words (common/site.ts), which the server fills:
 * so the browser's first drawing matches the page as sent and React takes it over as it is.
 */
const PRERENDER: SiteData = {
  site: {
    ...SITE_DEFAULTS,
    name: SITE_MARKS.name,
    tagline: SITE_MARKS.tagline,
    logoUrl: null,
    hasIcon: false,
  },
  page: null,
};

function arrived(): SiteData {
  if (typeof document === 'undefined') return PRERENDER;
  const element = document.getElementById(SITE_DATA_ID);
  try {
    if (element?.textContent) return JSON.parse(element.textContent) as SiteData;
  } catch {
    // An unreadable copy: the defaults, then the server's answer (below).
  }
  return {
    site: { ...PRERENDER.site, name: SITE_DEFAULTS.name, tagline: SITE_DEFAULTS.tagline },
    page: null,
  };
}

let data = arrived();
const listeners = new Set<() => void>();

/** The site's identity everywhere at once: after the console saves it, for instance. */
export function setSite(site: SitePublic): void {
  data = { ...data, site };
  applyAccent(site.accentColor);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => data.site;

export function useSite(): SitePublic {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * The owner page the visitor arrived on, as inlined; at the build, the marks the server fills.
 * Another page (reached by a link) is fetched (api.ts).
 */
export function arrivedPage(name: OwnerPageName): OwnerPageView | null {
  if (typeof document === 'undefined') {
    return {
      name,
      title: SITE_MARKS.pageTitle,
      description: '',
      headline: SITE_MARKS.pageHeadline,
      html: SITE_MARKS.pageHtml,
    };
  }
  return data.page?.name === name && window.location.pathname === OWNER_PAGE_PATHS[name] ? data.page : null;
}

/** The main buttons' colour (the server writes it in the page's head; this follows a save). */
function applyAccent(color: string): void {
  if (typeof document !== 'undefined') document.documentElement.style.setProperty('--color-brand', color);
}
