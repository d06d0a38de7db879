import { useCallback, useEffect, useState } from 'react';

export interface Notice {
  tone: 'error' | 'success';
  text: string;
}

/** SPEC section 9: messages clear themselves after 3 seconds by default. */
const NOTICE_MS = 3000;

export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), notice.tone === 'error' ? NOTICE_MS * 2 : NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const success = useCallback((text: string) => setNotice({ tone: 'success', text }), []);
  const error = useCallback((text: string) => setNotice({ tone: 'error', text }), []);
  return { notice, success, error };
}
