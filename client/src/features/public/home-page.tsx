import { PUBLIC_PAGES } from '@common/public-pages';
import { Link } from 'react-router';
import { NextPageNotice } from '../../components/page/next-page-notice';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { useSiteIdentity } from '../../components/page/site-context';
import { readSession } from '../../lib/auth-token';
import { useStoredToken } from '../../lib/use-stored-token';
import { PageText, useOwnerPage } from '../site/owner-page';

/** The landing page: the site's name (the spec's brand title), the owner's headline and text, the way in. */
export function HomePage() {
  const site = useSiteIdentity();
  const { page } = useOwnerPage('home');
  usePageMeta(page ? { title: site.name, description: page.description } : PUBLIC_PAGES.home);
  const session = readSession(useStoredToken());
  const destination = session?.role === 'admin' ? '/admin/dashboard' : '/dashboard';
  return (
    <PageShell
      nav={
        <Link to="/courses" className="rounded-lg px-3 py-2 text-stone-200 hover:bg-white/10">
          Courses
        </Link>
      }
    >
      <div className="scrim-soft max-w-2xl text-center">
        {/* Why the person landed here (account made, account deleted), said once. */}
        <NextPageNotice className="mx-auto mb-8 max-w-md" />
        <h1 className="font-display text-5xl leading-tight text-white drop-shadow-lg sm:text-7xl">
          {site.name}
        </h1>
        <p className="mx-auto mt-6 max-w-lg text-lg text-stone-200 drop-shadow">
          {page ? page.headline : site.tagline}
        </p>
        {page && (
          <PageText html={page.html} className="mx-auto mt-6 max-w-xl text-left drop-shadow empty:hidden" />
        )}
        <div className="mt-10 flex flex-wrap items-center justify-center gap-4">
          {session ? (
            <Link to={destination} className={PRIMARY_LINK}>
              Go to your dashboard
            </Link>
          ) : (
            <>
              <Link to="/login" className={PRIMARY_LINK}>
                Sign In
              </Link>
              <Link to="/join" className={SECONDARY_LINK}>
                Create an account
              </Link>
            </>
          )}
        </div>
      </div>
    </PageShell>
  );
}

// The site's accent colour (the console's Site section), under white text: 4.5:1 at least, checked when saved.
const PRIMARY_LINK =
  'rounded-full bg-brand px-8 py-3 font-semibold text-white shadow-lg shadow-black/30 hover:brightness-110';
const SECONDARY_LINK =
  'rounded-full border border-white/30 bg-black/20 px-8 py-3 font-semibold text-white backdrop-blur hover:bg-white/10';
