import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React is taking over a page that arrived pre-rendered (and in that pre-render),
 * true from then on and whenever React draws a page itself. Forms stay disabled until then:
 * typed text would otherwise be lost, and a native submit would put the password in the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
