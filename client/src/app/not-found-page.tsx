import { SITE_MARKS } from '@common/site';
import { Link, useLocation } from 'react-router';
import { usePageMeta } from '../components/page/page-meta';
import { PageShell } from '../components/page/page-shell';
import { Card } from '../components/ui/card';

export function NotFoundPage() {
  usePageMeta({
    title: 'Page not found',
    description: `There is nothing at this address on ${SITE_MARKS.name}. It may have moved, or the link may be mistyped.`,
  });
  const { pathname } = useLocation();
  return (
    <PageShell>
      <Card className="max-w-md text-center">
        <p className="text-sm font-semibold uppercase tracking-widest text-accent-400">404</p>
        <h1 className="mt-2 font-display text-3xl text-white">Page not found</h1>
        <p className="mt-3 text-stone-300">
          There is nothing at{' '}
          <code className="break-all rounded bg-white/10 px-1.5 py-0.5 text-sm">{pathname}</code>. It may have
          moved, or the link may be mistyped.
        </p>
        <Link to="/" className="mt-6 inline-block font-semibold text-accent-300 hover:text-accent-400">
          Back to the home page
        </Link>
      </Card>
    </PageShell>
  );
}
