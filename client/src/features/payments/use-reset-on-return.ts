import { useEffect } from 'react';

/**
 * A button left "Going to Stripe…" is made usable again when the browser brings the page back
 * from its cache (the member pressed Back on Stripe's page).
 */
export function useResetOnReturn(reset: () => void): void {
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [reset]);
}
