import { BRAND_NAME } from '@common/constants';
import { PUBLIC_PAGES } from '@common/public-pages';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { readSession } from '../../lib/auth-token';
import { takeNotice } from '../../lib/next-page-notice';
import { useStoredToken } from '../../lib/use-stored-token';

export function HomePage() {
  usePageMeta(PUBLIC_PAGES.home);
  const session = readSession(useStoredToken());
  const destination = session?.role === 'admin' ? '/admin/dashboard' : '/dashboard';
  // Why the person landed here (account made, account deleted), said once; read after hydration.
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setNotice(takeNotice()), []);
  return (
    <PageShell
      nav={
        <Link to="/courses" className="rounded-lg px-3 py-2 text-stone-200 hover:bg-white/10">
          Courses
        </Link>
      }
    >
      <div className="scrim-soft max-w-2xl text-center">
        <p
          role="status"
          className="mx-auto mb-8 max-w-md rounded-lg border border-emerald-400/40 bg-stone-950/85 px-4 py-3 text-sm text-emerald-200 empty:hidden"
        >
          {notice}
        </p>
        <h1 className="font-display text-5xl leading-tight text-white drop-shadow-lg sm:text-7xl">
          {BRAND_NAME}
        </h1>
        <p className="mx-auto mt-6 max-w-lg text-lg text-stone-200 drop-shadow">
          Design the life you want, one deliberate step at a time.
        </p>
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

const PRIMARY_LINK =
  'rounded-full bg-accent-400 px-8 py-3 font-semibold text-stone-950 shadow-lg shadow-black/30 hover:bg-accent-300';
const SECONDARY_LINK =
  'rounded-full border border-white/30 bg-black/20 px-8 py-3 font-semibold text-white backdrop-blur hover:bg-white/10';
