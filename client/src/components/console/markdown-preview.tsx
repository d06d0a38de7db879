import type { ReactNode } from 'react';

/**
 * The preview beside a Markdown field in the console (a lesson, an announcement, a welcome mail):
 * the server's HTML, rendered with the rules lessons are saved with (marked, then sanitize-html).
 */
export function MarkdownPreview({
  id,
  html,
  empty = null,
  height,
}: {
  /** The heading's id: the section is labelled by it. */
  id: string;
  html: string | null;
  /** What shows before there is any preview. */
  empty?: ReactNode;
  /** The box's least height, a Tailwind class (min-h-…), to match its field. */
  height: string;
}) {
  return (
    <div>
      <p id={id} className="mb-1.5 text-sm font-medium text-stone-300">
        Preview
      </p>
      <section
        aria-labelledby={id}
        className={`${height} overflow-auto rounded-lg border border-white/10 bg-black/20 p-4`}
      >
        {html === null ? (
          empty
        ) : (
          // Sanitised by the server before it is sent (see above).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
          <div className="lesson-body" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </section>
    </div>
  );
}
