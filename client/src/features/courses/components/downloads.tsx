import type { LessonFileLink } from '@common/schemas/course-views';
import { formatSize } from '../../../lib/format-size';

/** The lesson's files to keep: each a signed link, fresh with every load of the lesson. */
export function Downloads({ files }: { files: LessonFileLink[] }) {
  if (files.length === 0) return null;
  return (
    <section aria-labelledby="downloads-heading" className="mt-8">
      <h2 id="downloads-heading" className="text-lg font-semibold text-white">
        Downloads
      </h2>
      <ul className="mt-3 space-y-2">
        {files.map((file) => (
          <li key={file.id}>
            <a
              href={file.url}
              download={file.name}
              className="flex items-center gap-3 rounded-lg border border-white/10 bg-black/20 px-4 py-3 text-sm hover:border-accent-400/60 hover:bg-white/5"
            >
              <span aria-hidden="true" className="text-accent-300">
                ⇩
              </span>
              <span className="min-w-0 flex-1 truncate font-medium text-white">{file.name}</span>
              <span className="text-xs text-stone-400">{formatSize(file.size)}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
