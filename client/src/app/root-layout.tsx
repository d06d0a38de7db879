import { Outlet, ScrollRestoration } from 'react-router';
import { BackgroundLayer } from '../features/slideshow/background-layer';

/** Every page sits above the background layer. */
export function RootLayout() {
  return (
    <>
      <BackgroundLayer />
      <div className="relative z-10 min-h-screen">
        <Outlet />
      </div>
      <ScrollRestoration />
    </>
  );
}
