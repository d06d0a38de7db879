import { formatDay } from '@common/dates';
import type { LessonKind, OutlineSection } from '@common/schemas/course-views';
import { Link } from 'react-router';
import { formatMinutes } from '../format';
import { LockIcon } from './lock-icon';

const KIND_ICON: Record<LessonKind, string> = { video: '▶', audio: '♪', text: '¶' };
const KIND_WORD: Record<LessonKind, string> = { video: 'Video', audio: 'Audio', text: 'Reading' };

/** A course's sections and lessons, each with its lock, its progress and when it opens. */
export function Outline({
  slug,
  sections,
  query = '',
  currentLessonId,
}: {
  slug: string;
  sections: OutlineSection[];
  /** Carried to the lesson links (an administrator's `?as=` preview). */
  query?: string;
  currentLessonId?: string;
}) {
  return (
    <ol className="space-y-6">
      {sections.map((section, index) => (
        <li key={section.id}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold text-white">
              <span className="mr-2 text-stone-400 tabular-nums">{index + 1}.</span>
              {section.title}
            </h2>
            {section.lock && (
              <p className="text-sm text-amber-200" data-testid="section-lock">
                <LockIcon className="mr-1 size-3.5 align-[-2px]" />
                {section.lock.opensAt ? `Opens on ${formatDay(section.lock.opensAt)}` : section.lock.message}
              </p>
            )}
          </div>
          <ol className="mt-3 divide-y divide-white/5 overflow-hidden rounded-xl border border-white/10 bg-black/20">
            {section.lessons.map((lesson) => {
              const current = lesson.id === currentLessonId;
              const details = [KIND_WORD[lesson.kind], formatMinutes(lesson.durationMinutes)]
                .filter(Boolean)
                .join(' · ');
              return (
                <li key={lesson.id}>
                  <Link
                    to={`/courses/${slug}/lessons/${lesson.id}${query}`}
                    aria-current={current ? 'page' : undefined}
                    className={`flex items-center gap-3 px-4 py-3 text-sm transition-colors hover:bg-white/5 ${current ? 'bg-accent-400/10' : ''}`}
                  >
                    <span
                      aria-hidden="true"
                      className={`flex size-7 shrink-0 items-center justify-center rounded-full text-xs ${
                        lesson.completed ? 'bg-emerald-500/25 text-emerald-200' : 'bg-white/10 text-stone-300'
                      }`}
                    >
                      {lesson.completed ? '✓' : KIND_ICON[lesson.kind]}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span
                        className={`block truncate font-medium ${lesson.lock ? 'text-stone-300' : 'text-white'}`}
                      >
                        {lesson.title}
                      </span>
                      <span className="block text-xs text-stone-400">
                        {details}
                        {lesson.downloads > 0 &&
                          ` · ${lesson.downloads} download${lesson.downloads === 1 ? '' : 's'}`}
                      </span>
                    </span>
                    {lesson.completed && <span className="sr-only">Completed.</span>}
                    {lesson.freePreview && (
                      <span className="rounded-full border border-accent-400/40 px-2 py-0.5 text-xs text-accent-300">
                        Free preview
                      </span>
                    )}
                    {lesson.lock && (
                      <span className="shrink-0 text-xs text-stone-300" title={lesson.lock.message}>
                        <LockIcon className="size-4 text-stone-300" />
                        <span className="sr-only">Locked: {lesson.lock.message}</span>
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
            {section.lessons.length === 0 && (
              <li className="px-4 py-3 text-sm text-stone-400">No lessons yet.</li>
            )}
          </ol>
        </li>
      ))}
    </ol>
  );
}
