import { COURSE_ACCESS_LABELS } from '@common/courses';
import type { CourseCard as Card } from '@common/schemas/course-views';
import { Link } from 'react-router';
import { formatMinutes } from '../format';
import { CourseCover } from './course-cover';
import { LockIcon } from './lock-icon';
import { ProgressBar } from './progress-bar';

const STATUS_WORDS = {
  start: 'Start',
  continue: 'Continue',
  completed: 'Completed',
  locked: 'Locked',
} as const;

/** What a card's action says: never "Join" to a member; nothing at all while a member's view loads. */
function action(course: Card, signedIn: boolean, pending: boolean): string | null {
  if (pending) return null;
  if (course.status === 'locked') {
    if (course.lock?.reason === 'sign-in') return 'Join free to start';
    return signedIn ? 'Locked · paid members' : 'Paid members';
  }
  return STATUS_WORDS[course.status];
}

/**
 * A course in a list: its picture, title, summary, size and what the reader can do with it.
 * The title's link covers the whole card, so the card is one stop for a keyboard.
 */
export function CourseCard({
  course,
  signedIn,
  pending = false,
  headingLevel = 'h2',
  eager = false,
}: {
  course: Card;
  signedIn: boolean;
  /** A member's own view is on its way: the visitor's words are not shown meanwhile. */
  pending?: boolean;
  headingLevel?: 'h2' | 'h3';
  /** The first card's picture is on screen at once: not lazily loaded. */
  eager?: boolean;
}) {
  const Heading = headingLevel;
  const words = action(course, signedIn, pending);
  const meta = [
    `${course.lessonCount} lesson${course.lessonCount === 1 ? '' : 's'}`,
    formatMinutes(course.totalMinutes),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <article
      data-testid="course-card"
      className="relative flex w-full flex-col overflow-hidden rounded-2xl border border-white/10 bg-stone-950/85 shadow-xl shadow-black/30 backdrop-blur-xl transition-colors focus-within:border-accent-400 hover:border-white/25"
    >
      <CourseCover
        id={course.id}
        title={course.title}
        url={course.coverUrl}
        srcset={course.coverSrcset}
        eager={eager}
        className="aspect-[16/9] w-full"
      />
      <div className="flex flex-1 flex-col p-5">
        <p className="text-xs font-semibold uppercase tracking-widest text-accent-300">
          {COURSE_ACCESS_LABELS[course.access]}
        </p>
        <Heading className="mt-1.5 text-xl font-semibold text-white">
          <Link
            to={`/courses/${course.slug}`}
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
          >
            {course.title}
          </Link>
        </Heading>
        {course.summary && <p className="mt-2 line-clamp-3 text-sm text-stone-300">{course.summary}</p>}
        <p className="mt-3 text-xs text-stone-400">{meta}</p>
        <div className="mt-auto pt-4">
          {course.progress && course.status !== 'locked' && course.status !== 'start' && (
            <ProgressBar progress={course.progress} label={`Progress in ${course.title}`} />
          )}
          {words && (
            <p
              className={`mt-3 text-sm font-semibold ${course.status === 'locked' ? 'text-stone-300' : 'text-accent-300'}`}
              data-testid="course-status"
            >
              {course.status === 'locked' && <LockIcon className="mr-1.5 size-3.5 align-[-2px]" />}
              {words}
              {course.status !== 'locked' && <span aria-hidden="true"> →</span>}
            </p>
          )}
        </div>
      </div>
    </article>
  );
}
