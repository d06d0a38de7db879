import { escapeHtml } from './escape-html.ts';

/**
 * The site's identity and the owner's pages, shared by the server and the client. The site's
 * name is the owner's (the console's Site panel), never a constant: the build writes the marks
 * below where the name, the tagline and a page's own words go, and the server fills them into
 * every page it sends (server/src/features/site/site-html.ts).
 */

/** What the build writes where the server puts the site's words; plain ASCII that no escaping changes. */
export const SITE_MARKS = {
  name: '%SITE_NAME%',
  tagline: '%SITE_TAGLINE%',
  /** An owner page's own title, headline and HTML (on that page's address only). */
  pageTitle: '%SITE_PAGE_TITLE%',
  pageHeadline: '%SITE_PAGE_HEADLINE%',
  pageHtml: '%SITE_PAGE_HTML%',
  /** The logo in the header and the social links in the footer, as HTML (see siteLogoHtml, socialLinksHtml). */
  logo: '%SITE_LOGO%',
  social: '%SITE_SOCIAL%',
} as const;

/** The id of the JSON the server puts in every page: the site's public settings and the page shown. */
export const SITE_DATA_ID = 'site-data';

/** The pages the owner writes, by name; each has its own address (home is `/`). */
export const OWNER_PAGES = ['home', 'about', 'terms', 'privacy', 'contact'] as const;
export type OwnerPageName = (typeof OWNER_PAGES)[number];
export const OWNER_PAGE_PATHS: Record<OwnerPageName, string> = {
  home: '/',
  about: '/about',
  terms: '/terms',
  privacy: '/privacy',
  contact: '/contact',
};

/** The console's words for each page: its button, and the page in a sentence. */
export const OWNER_PAGE_LABELS: Record<OwnerPageName, string> = {
  home: 'Home page',
  about: 'About',
  terms: 'Terms',
  privacy: 'Privacy',
  contact: 'Contact',
};
export const ownerPageWords = (name: OwnerPageName) =>
  name === 'home' ? 'the home page' : `the ${OWNER_PAGE_LABELS[name]} page`;

/** The owner page at `pathname`, if any. */
export function ownerPageAt(pathname: string): OwnerPageName | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return OWNER_PAGES.find((name) => OWNER_PAGE_PATHS[name] === trimmed);
}

export interface SocialLink {
  label: string;
  url: string;
}

/** What every visitor's page shows of the site (GET /api/site, and inlined in every page). */
export interface SitePublic {
  name: string;
  tagline: string;
  /** `#rrggbb`: the background of the main buttons, under white text. */
  accentColor: string;
  contactEmail: string;
  socialLinks: SocialLink[];
  /** The logo's address under /media, or null. */
  logoUrl: string | null;
  /** Whether the owner chose an icon: then /site-icon/<size>.png are made from it. */
  hasIcon: boolean;
}

/** An owner page as a visitor reads it (GET /api/site/pages/:name). */
export interface OwnerPageView {
  name: OwnerPageName;
  title: string;
  description: string;
  /** The home page's line under the site's name; '' on the other pages. */
  headline: string;
  /** The page's text as safe HTML (the lessons' Markdown rules). */
  html: string;
}

/** What the server inlines in a page: the site, and the owner page it is, if it is one. */
export interface SiteData {
  site: SitePublic;
  page: OwnerPageView | null;
}

/** A fresh install's identity: a plain placeholder the console asks the owner to replace. */
export const SITE_DEFAULTS = {
  name: 'My Site',
  tagline: 'Design the life you want, one deliberate step at a time.',
  // Amber 700: 5.0:1 under white text.
  accentColor: '#b45309',
  contactEmail: '',
  socialLinks: [] as SocialLink[],
};

/** The contrast the main buttons' white text needs on the accent colour (WCAG AA, normal text). */
export const MIN_ACCENT_CONTRAST = 4.5;

/** WCAG's contrast ratio of white text on `hex` (`#rrggbb`), from 1 to 21. */
export function contrastWithWhite(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

/** A text with the site's name where the mark stands (the public pages' descriptions). */
export function withSiteName(text: string, name: string): string {
  return text.split(SITE_MARKS.name).join(name);
}

/** The icon sizes browsers ask for: the tab (32), Apple's touch icon (180), the web manifest's (192, 512). */
export const SITE_ICON_SIZES = [32, 180, 192, 512] as const;

/** Largest logo or icon file accepted, in bytes (a picture for a header, not a poster). */
export const MAX_SITE_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * The header's logo as HTML. The server writes it into the page where the build left its mark,
 * and the client draws the very same markup, so the page is taken over without a mismatch.
 */
export function siteLogoHtml(logoUrl: string | null): string {
  return logoUrl
    ? `<img src="${escapeHtml(logoUrl)}" alt="" class="h-9 w-auto max-w-24 object-contain" />`
    : '';
}

/** The footer's social links as HTML, made alike by the server and the client (see siteLogoHtml). */
export function socialLinksHtml(links: SocialLink[]): string {
  return links
    .map(
      (link) =>
        `<a href="${escapeHtml(link.url)}" rel="noopener noreferrer me" class="py-1 hover:text-white">${escapeHtml(link.label)}</a>`,
    )
    .join('');
}
