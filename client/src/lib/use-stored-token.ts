import { TOKEN_STORAGE_KEY } from '@common/constants';
import { useSyncExternalStore } from 'react';
import { getToken, TOKEN_CHANGED_EVENT } from './auth-token';

/** Another tab's sign-in or sign-out, and this tab's own (a refused token is forgotten, say). */
function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(TOKEN_CHANGED_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(TOKEN_CHANGED_EVENT, onChange);
  };
}

/**
 * The stored sign-in token, for rendering. A pre-rendered page was drawn for a visitor without
 * one, so while React takes it over the answer is null, and the real one follows at once.
 */
export function useStoredToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, () => null);
}

/**
 * The stored token for the guarded screens, which are never pre-rendered: read at once, and
 * followed as it changes, so a session ended elsewhere sends the person to sign in.
 */
export function useLiveToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, getToken);
}
