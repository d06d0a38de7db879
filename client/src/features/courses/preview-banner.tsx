import type { PreviewPersona } from '@common/schemas/courses';
import { useSearchParams } from 'react-router';

const WORDS: Record<PreviewPersona, string> = {
  visitor: 'a visitor',
  free: 'a free member',
  paid: 'a paid member',
};

/** An administrator's "Preview as…": which persona the page shows, from `?as=`. */
export function usePreviewPersona(): PreviewPersona | null {
  const [params] = useSearchParams();
  const as = params.get('as');
  return as === 'visitor' || as === 'free' || as === 'paid' ? as : null;
}

export function PreviewBanner({ persona }: { persona: PreviewPersona | null }) {
  if (!persona) return null;
  return (
    <p
      role="status"
      className="mb-6 rounded-xl border border-sky-400/40 bg-sky-500/15 px-4 py-3 text-sm text-sky-100"
    >
      Preview: you see this as {WORDS[persona]} who joined today would. Nothing you do here is kept.
    </p>
  );
}
