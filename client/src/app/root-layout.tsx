import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { BACKDROP } from '../features/slideshow/backdrop';
import { useAfterFirstPaint } from '../lib/use-after-first-paint';
import { ErrorBoundary } from './error-boundary';

// The slideshow (its code, its data request and its pictures) waits until the page itself has
// painted and the browser is idle: it is decoration and must never delay the page's content.
const BackgroundLayer = lazy(() =>
  import('../features/slideshow/background-layer').then((m) => ({ default: m.BackgroundLayer })),
);

/** Every page sits above the background layer. */
export function RootLayout() {
  const painted = useAfterFirstPaint();
  const { pathname } = useLocation();
  useScrollToTopOnNavigation(pathname);
  return (
    <>
      {/* The same still backdrop the slideshow starts from, so nothing flashes when it takes over. */}
      <div aria-hidden="true" className={`fixed inset-0 z-0 ${BACKDROP}`} />
      {painted && (
        <Suspense fallback={null}>
          <BackgroundLayer />
        </Suspense>
      )}
      <div className="relative z-10 min-h-screen">
        {/* A failing page shows the error page inside the layout; the next page starts afresh. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </div>
    </>
  );
}

/** A new page starts at its top; back and forward are left to the browser's own restoration. */
function useScrollToTopOnNavigation(pathname: string): void {
  const navigationType = useNavigationType();
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}
