import { type FormEvent, useState } from 'react';
import { ApiError } from '../../lib/api-client';

/** Runs a form's async action once at a time and keeps its error message for display. */
export function useSubmit(action: () => Promise<void>, fallbackMessage: string) {
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError('');
    try {
      await action();
    } catch (err) {
      // The server's own words when it gave some; otherwise the screen's fallback ('Login failed', …).
      setError(err instanceof ApiError && err.fromServer ? err.message : fallbackMessage);
    } finally {
      setPending(false);
    }
  }

  return { onSubmit, error, setError, pending };
}
