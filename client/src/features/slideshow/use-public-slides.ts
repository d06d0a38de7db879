import type { PublicSlidesData } from '@common/schemas/slideshow';
import { useEffect, useState } from 'react';
import { SLIDESHOW_RELOAD_EVENT } from './slideshow-events';

/**
 * The public slides, loaded on page load, on window focus and when the tab becomes visible.
 * `cache: 'no-cache'` makes the browser revalidate every time: the server's ETag turns an
 * unchanged answer into an empty 304, so a reload is never stale and rarely costs a body.
 */
export function usePublicSlides(onReload: () => void): PublicSlidesData | null {
  const [data, setData] = useState<PublicSlidesData | null>(null);

  useEffect(() => {
    let inFlight = false;
    let cancelled = false;
    async function load() {
      // Focus and visibilitychange often fire together: one request is enough.
      if (inFlight) return;
      inFlight = true;
      try {
        const response = await fetch('/api/slider/public', {
          cache: 'no-cache',
          headers: { Accept: 'application/json' },
        });
        if (!response.ok) return;
        const body = (await response.json()) as { data?: PublicSlidesData };
        if (!cancelled && body.data) {
          setData(body.data);
          onReload();
        }
      } catch {
        // Offline or server restarting: keep playing what we have and try again on the next focus.
      } finally {
        inFlight = false;
      }
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void load();
    };
    const onEvent = () => void load();
    void load();
    window.addEventListener('focus', onEvent);
    window.addEventListener(SLIDESHOW_RELOAD_EVENT, onEvent);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelled = true;
      window.removeEventListener('focus', onEvent);
      window.removeEventListener(SLIDESHOW_RELOAD_EVENT, onEvent);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [onReload]);

  return data;
}
