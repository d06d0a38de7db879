import { Link } from 'react-router';
import { PageShell } from '../components/page/page-shell';
import { Card } from '../components/ui/card';

/** Shown by ErrorBoundary when a page fails, instead of a blank screen. */
export function ErrorPage({ error }: { error: unknown }) {
  // A new deployment removes old chunks; reloading fetches the new ones.
  const staleChunk =
    error instanceof TypeError && /dynamically imported module|Importing a module/i.test(error.message);
  return (
    <PageShell>
      <Card className="max-w-md text-center">
        <h1 className="font-display text-3xl text-white">Something went wrong</h1>
        <p className="mt-3 text-stone-300">
          {staleChunk
            ? 'A newer version of the site is available. Reload the page to continue.'
            : 'Sorry, this page ran into a problem. Try again, and if it keeps happening, come back a little later.'}
        </p>
        <div className="mt-6 flex justify-center gap-4">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="font-semibold text-accent-300 hover:text-accent-400"
          >
            Reload
          </button>
          <Link to="/" className="font-semibold text-stone-300 hover:text-white">
            Home page
          </Link>
        </div>
      </Card>
    </PageShell>
  );
}
