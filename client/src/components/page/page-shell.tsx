import { BRAND_NAME, COPYRIGHT_YEAR } from '@common/constants';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A link in the top bar, beside its buttons (Dashboard, Account). */
export const NAV_LINK_CLASS =
  'rounded-lg px-4 py-2.5 text-sm font-semibold text-stone-200 transition-colors hover:bg-white/10 hover:text-white';

/** The frame of the public pages: brand in the top bar, copyright at the foot. */
export function PageShell({ children, nav }: { children: ReactNode; nav?: ReactNode }) {
  return (
    // overflow-x-clip: the scrims reach past the screen's edges on a phone, never into a scroll bar.
    <div className="flex min-h-screen flex-col overflow-x-clip">
      <header className="scrim-top flex items-center justify-between px-6 pt-5 pb-9 sm:px-10">
        <Link to="/" className="font-display text-xl tracking-wide text-white hover:text-accent-300">
          {BRAND_NAME}
        </Link>
        <nav className="flex items-center gap-2 text-sm">{nav}</nav>
      </header>
      <main className="flex flex-1 flex-col items-center justify-center px-4 py-10">{children}</main>
      <SiteFooter />
    </div>
  );
}

export function SiteFooter() {
  return (
    <footer className="scrim-bottom px-6 pt-10 pb-6 text-center text-xs text-stone-300">
      © {COPYRIGHT_YEAR} {BRAND_NAME}. All rights reserved.
    </footer>
  );
}
