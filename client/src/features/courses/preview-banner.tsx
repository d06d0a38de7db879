import type { PreviewViewer } from '@common/courses';
import { useSearchParams } from 'react-router';

const WORDS: Record<PreviewViewer, string> = {
  visitor: 'a visitor',
  free: 'a free member',
  paid: 'a paid member',
};

/** An administrator's "Preview as…": which viewer the page is shown to, from `?as=`. */
export function usePreviewViewer(): PreviewViewer | null {
  const [params] = useSearchParams();
  const as = params.get('as');
  return as === 'visitor' || as === 'free' || as === 'paid' ? as : null;
}

export function PreviewBanner({ preview }: { preview: PreviewViewer | null }) {
  if (!preview) return null;
  return (
    <p
      role="status"
      className="mb-6 rounded-xl border border-sky-400/40 bg-sky-500/15 px-4 py-3 text-sm text-sky-100"
    >
      Preview: you see this as {WORDS[preview]} who joined today would. Nothing you do here is kept.
    </p>
  );
}
