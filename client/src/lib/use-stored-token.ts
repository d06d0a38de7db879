import { TOKEN_STORAGE_KEY } from '@common/constants';
import { useSyncExternalStore } from 'react';
import { getToken } from './auth-token';

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/**
 * The stored sign-in token, for rendering. A pre-rendered page was drawn for a visitor without
 * one, so while React takes it over the answer is null, and the real one follows at once.
 */
export function useStoredToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, () => null);
}
