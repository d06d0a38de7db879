import { useCallback, useEffect, useState } from 'react';

/** SPEC section 8: the database panel's notices hide themselves after 5 seconds. */
export const NOTICE_MS = 5000;

export interface DatabaseNotice {
  tone: 'error' | 'success';
  /** One of the spec's messages, word for word. */
  text: string;
  /** The reason behind it, when there is one (the server's or the driver's words). */
  detail?: string;
  /** Each notice is new, even when its text repeats: the 5 seconds start again. */
  id: number;
}

let counter = 0;

export function useDatabaseNotice() {
  const [notice, setNotice] = useState<DatabaseNotice | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const success = useCallback(
    (text: string, detail?: string) => setNotice({ tone: 'success', text, detail, id: ++counter }),
    [],
  );
  const error = useCallback(
    (text: string, detail?: string) => setNotice({ tone: 'error', text, detail, id: ++counter }),
    [],
  );
  return { notice, success, error };
}
