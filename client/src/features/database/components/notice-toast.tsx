import type { DatabaseNotice } from '../use-database-notice';

/** The panel's notice, top right over everything, announced to screen readers. */
export function NoticeToast({ notice }: { notice: DatabaseNotice | null }) {
  if (!notice) return null;
  const error = notice.tone === 'error';
  return (
    <div
      key={notice.id}
      role={error ? 'alert' : 'status'}
      className={`fixed top-4 right-4 left-4 z-[60] rounded-lg border px-4 py-3 text-sm shadow-2xl backdrop-blur sm:left-auto sm:max-w-md ${
        error
          ? 'border-red-500/40 bg-red-950/90 text-red-100'
          : 'border-emerald-500/40 bg-emerald-950/90 text-emerald-100'
      }`}
    >
      <p className="font-medium">{notice.text}</p>
      {notice.detail && <p className="mt-1 break-words opacity-80">{notice.detail}</p>}
    </div>
  );
}
