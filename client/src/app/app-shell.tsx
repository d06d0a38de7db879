import { SiteProvider } from '../features/site/site-provider';
import { ErrorBoundary } from './error-boundary';
import { AppRoutes } from './router';

/**
 * Everything below the router: the same tree in the browser (main.tsx) and when the build
 * renders the public pages to HTML (entry-prerender.tsx), so that the browser can take over
 * the pre-rendered page as it is (hydration) instead of drawing it again.
 */
export function AppShell() {
  return (
    <ErrorBoundary>
      <SiteProvider>
        <AppRoutes />
      </SiteProvider>
    </ErrorBoundary>
  );
}
