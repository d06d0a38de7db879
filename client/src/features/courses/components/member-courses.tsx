import type { MemberHome } from '@common/schemas/course-views';
import { Link } from 'react-router';
import { formatClock } from '../format';
import { useMemberHome } from '../queries';
import { CourseCard } from './course-card';
import { ProgressBar } from './progress-bar';
import { UpgradeOffer } from './upgrade-offer';

const SECTION_TITLE = 'text-sm font-semibold uppercase tracking-wider text-stone-300';

/** The member's home beneath the dashboard's greeting: where they left off, their courses, what paid opens. */
export function MemberCourses() {
  const home = useMemberHome();
  if (home.isPending) return <p className="mt-8 text-center text-stone-300">Loading your courses…</p>;
  if (home.isError)
    return (
      <p role="alert" className="mt-8 text-center text-red-200">
        Your courses could not be loaded: {home.error.message}
      </p>
    );
  return <HomeSections home={home.data} />;
}

function HomeSections({ home }: { home: MemberHome }) {
  const next = home.continue;
  return (
    <div className="mt-8 space-y-10">
      {next && (
        <section aria-labelledby="continue-heading">
          <h2 id="continue-heading" className={SECTION_TITLE}>
            Continue where you left off
          </h2>
          <div className="mt-3 flex flex-col gap-4 rounded-2xl border border-accent-400/30 bg-stone-950/75 p-5 shadow-xl shadow-black/30 backdrop-blur-xl sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <p className="text-sm text-stone-300">{next.course.title}</p>
              <p className="mt-1 truncate text-xl font-semibold text-white">{next.lesson.title}</p>
              {next.position > 0 && (
                <p className="mt-1 text-sm text-stone-400">Paused at {formatClock(next.position)}</p>
              )}
              <div className="mt-3 max-w-sm">
                <ProgressBar progress={next.progress} label={`Your progress in ${next.course.title}`} />
              </div>
            </div>
            <Link
              to={`/courses/${next.course.slug}/lessons/${next.lesson.id}`}
              className="inline-flex items-center justify-center rounded-full bg-accent-400 px-6 py-2.5 font-semibold text-stone-950 hover:bg-accent-300"
            >
              Continue<span className="sr-only">: {next.lesson.title}</span>
            </Link>
          </div>
        </section>
      )}
      <section aria-labelledby="my-courses-heading">
        <h2 id="my-courses-heading" className={SECTION_TITLE}>
          Your courses
        </h2>
        {home.courses.length === 0 ? (
          <p className="mt-3 rounded-2xl border border-white/10 bg-stone-950/85 p-5 text-stone-300 backdrop-blur-xl">
            No course is open yet.{' '}
            <Link to="/courses" className="font-semibold text-accent-300">
              See the courses
            </Link>
          </p>
        ) : (
          <ul className="mt-3 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {home.courses.map((course) => (
              <li key={course.id} className="flex">
                <CourseCard course={course} signedIn headingLevel="h3" />
              </li>
            ))}
          </ul>
        )}
      </section>
      {home.bought.length > 0 && (
        <section aria-labelledby="bought-heading">
          <h2 id="bought-heading" className={SECTION_TITLE}>
            Courses you bought
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {home.bought.map((course) => (
              <li key={course.id}>
                <Link
                  to={`/courses/${course.slug}`}
                  className="inline-flex rounded-full border border-accent-400/40 bg-stone-950/70 px-4 py-1.5 text-sm font-semibold text-accent-200 hover:border-accent-300 hover:text-accent-100"
                >
                  {course.title}
                </Link>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-stone-400">Bought on their own: yours whatever your membership.</p>
        </section>
      )}
      {home.locked.length > 0 && (
        <section aria-labelledby="paid-heading">
          <h2 id="paid-heading" className={SECTION_TITLE}>
            {home.tier === 'free' ? 'What the paid membership opens' : 'More courses'}
          </h2>
          <UpgradeOffer offer={home.offer} className="mt-3" />
          <ul className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {home.locked.map((course) => (
              <li key={course.id} className="flex">
                <CourseCard course={course} signedIn headingLevel="h3" />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
