import { type ReactNode, useEffect, useRef, useState } from 'react';
import { INPUT_CLASS } from '../ui/text-field';

/** How long typing must pause before the preview is asked for. */
const PREVIEW_AFTER_MS = 300;

/**
 * A Markdown field in the console (a lesson, a page of the site, an announcement, a welcome mail)
 * with its preview beside it: the server's HTML, rendered with the rules lessons are saved with
 * (marked, then sanitize-html). `id` is the base of the field's and the preview's ids.
 */
export function MarkdownField({
  id,
  value,
  onChange,
  html,
  height,
  placeholder,
  empty = null,
}: {
  id: string;
  value: string;
  onChange: (markdown: string) => void;
  /** The preview (useMarkdownPreview); null before there is any. */
  html: string | null;
  /** The field's and the preview's least height, a Tailwind class (min-h-…). */
  height: string;
  placeholder?: string;
  /** What the preview shows before there is any. */
  empty?: ReactNode;
}) {
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <div>
        <label htmlFor={`${id}-markdown`} className="mb-1.5 block text-sm font-medium text-stone-300">
          Text (Markdown)
        </label>
        <textarea
          id={`${id}-markdown`}
          className={`${INPUT_CLASS} ${height} font-mono text-sm`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
        />
      </div>
      <div>
        <p id={`${id}-preview`} className="mb-1.5 text-sm font-medium text-stone-300">
          Preview
        </p>
        <section
          aria-labelledby={`${id}-preview`}
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
    </div>
  );
}

/**
 * The preview of `markdown`, asked of the server a moment after typing stops (`render`); an
 * answer overtaken by more typing is dropped. `context` is what else the preview depends on (a
 * lesson's id, a mail's subject). Null while the text is empty.
 */
export function useMarkdownPreview(
  markdown: string,
  render: (markdown: string, signal: AbortSignal) => Promise<string>,
  context = '',
): string | null {
  const [html, setHtml] = useState<string | null>(null);
  // The latest render, so that a new function each render does not ask again.
  const renderRef = useRef(render);
  renderRef.current = render;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `context` is what `render` reads besides the text: a change of it asks again
  useEffect(() => {
    if (!markdown.trim()) {
      setHtml(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      renderRef.current(markdown, controller.signal).then(
        (rendered) => {
          if (!controller.signal.aborted) setHtml(rendered);
        },
        () => undefined,
      );
    }, PREVIEW_AFTER_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [markdown, context]);
  return html;
}
