import { COPYRIGHT_YEAR } from '@common/constants';
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
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between gap-4 px-6 py-5 sm:px-10">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-3 font-display text-xl tracking-wide text-white hover:text-accent-300"
        >
          {site.logoUrl && <img src={site.logoUrl} alt="" className="h-9 w-auto max-w-24 object-contain" />}
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

export function SiteFooter() {
  const site = useSiteIdentity();
  return (
    <footer className="px-6 py-6 text-center text-xs text-stone-400">
      <nav aria-label="Site" className="mb-2 flex flex-wrap items-center justify-center gap-x-4 gap-y-1">
        {FOOTER_LINKS.map((link) => (
          <Link key={link.to} to={link.to} className="py-1 hover:text-white">
            {link.label}
          </Link>
        ))}
        {site.socialLinks.map((link) => (
          <a key={link.url} href={link.url} rel="noopener noreferrer me" className="py-1 hover:text-white">
            {link.label}
          </a>
        ))}
      </nav>
      <p>
        © {COPYRIGHT_YEAR} {site.name}. All rights reserved.
      </p>
    </footer>
  );
}
