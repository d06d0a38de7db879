import { startTransition, useEffect, useState } from 'react';

/** How long to wait for an idle moment before going ahead anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * False until the page has loaded and the browser has an idle moment (or a short while has
 * passed where idle callbacks do not exist): for work that must not compete with first paint.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancel = () => {};
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(() => startTransition(() => setReady(true)), {
          timeout: IDLE_TIMEOUT_MS,
        });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        const id = window.setTimeout(() => startTransition(() => setReady(true)), 200);
        cancel = () => window.clearTimeout(id);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else {
      window.addEventListener('load', whenIdle, { once: true });
      cancel = () => window.removeEventListener('load', whenIdle);
    }
    return () => cancel();
  }, []);
  return ready;
}
