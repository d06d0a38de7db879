import { COPYRIGHT_YEAR } from '@common/constants';
import { SITE_MARKS, type SitePublic, siteLogoHtml, socialLinksHtml } from '@common/site';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteIdentity } from './site-context';

/** A link in the top bar, beside its buttons (Dashboard, Account). */
export const NAV_LINK_CLASS =
  'rounded-lg px-4 py-2.5 text-sm font-semibold text-stone-200 transition-colors hover:bg-white/10 hover:text-white';

/** The frame of the public pages: the site's logo and name in the top bar, copyright and links at the foot. */
export function PageShell({ children, nav }: { children: ReactNode; nav?: ReactNode }) {
  const site = useSiteIdentity();
  return (
    // overflow-x-clip: the scrims reach past the screen's edges on a phone, never into a scroll bar.
    <div className="flex min-h-screen flex-col overflow-x-clip">
      <header className="scrim-top flex items-center justify-between gap-4 px-6 pt-5 pb-9 sm:px-10">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-3 font-display text-xl tracking-wide text-white hover:text-accent-300"
        >
          <Markup html={prerendering(site) ? SITE_MARKS.logo : siteLogoHtml(site.logoUrl)} />
          <span className="truncate">{site.name}</span>
        </Link>
        <nav className="flex items-center gap-2 text-sm">{nav}</nav>
      </header>
      <main className="flex flex-1 flex-col items-center justify-center px-4 py-10">{children}</main>
      <SiteFooter />
    </div>
  );
}

const FOOTER_LINKS = [
  { to: '/about', label: 'About' },
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/contact', label: 'Contact' },
];

/** The build draws the pages with marks where the site's words go; the server fills them in. */
const prerendering = (site: SitePublic) => site.name === SITE_MARKS.name;

/**
 * Markup made alike here and by the server (common/site.ts), so that the page as sent is taken
 * over as it is: the logo and the social links are the site's, unknown when the page was built.
 */
function Markup({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: made by common/site.ts, every value escaped
  return <span className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function SiteFooter() {
  const site = useSiteIdentity();
  return (
    <footer className="scrim-bottom px-6 pt-10 pb-6 text-center text-xs text-stone-300">
      <nav aria-label="Site" className="mb-2 flex flex-wrap items-center justify-center gap-x-4 gap-y-1">
        {FOOTER_LINKS.map((link) => (
          <Link key={link.to} to={link.to} className="py-1 hover:text-white">
            {link.label}
          </Link>
        ))}
        <Markup html={prerendering(site) ? SITE_MARKS.social : socialLinksHtml(site.socialLinks)} />
      </nav>
      <p>
        © {COPYRIGHT_YEAR} {site.name}. All rights reserved.
      </p>
    </footer>
  );
}
