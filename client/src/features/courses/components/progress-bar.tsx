import type { CourseProgress } from '@common/schemas/course-views';

/** How far the member is through a course: a bar and its words. */
export function ProgressBar({ progress, label }: { progress: CourseProgress; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={`${progress.percent}% (${progress.completed} of ${progress.total} lessons)`}
        className="h-2 flex-1 overflow-hidden rounded-full bg-white/10"
      >
        <div className="h-full rounded-full bg-accent-400" style={{ width: `${progress.percent}%` }} />
      </div>
      <span className="w-10 text-right text-xs font-semibold text-stone-300 tabular-nums">
        {progress.percent}%
      </span>
    </div>
  );
}
