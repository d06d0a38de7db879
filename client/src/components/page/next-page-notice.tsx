import { useEffect, useState } from 'react';
import { takeNotice } from '../../lib/next-page-notice';

/**
 * The sentence a page left for this one (account made, account deleted: lib/next-page-notice.ts),
 * said once as a status. Read after hydration: the pre-rendered page has none.
 */
export function NextPageNotice({ className = '' }: { className?: string }) {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setNotice(takeNotice()), []);
  return (
    <p
      role="status"
      className={`rounded-lg border border-emerald-400/40 bg-stone-950/85 px-4 py-3 text-sm text-emerald-200 empty:hidden ${className}`}
    >
      {notice}
    </p>
  );
}
