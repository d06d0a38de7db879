import { PUBLIC_PAGES } from '@common/public-pages';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { CourseCard } from './components/course-card';
import { CourseNav, useSignedIn } from './components/course-nav';
import { useCatalogue } from './use-course-data';

/** The catalogue: every published course, with what the reader can do with each. */
export function CoursesPage() {
  usePageMeta(PUBLIC_PAGES.courses);
  const signedIn = useSignedIn();
  const { data: courses, pending, error } = useCatalogue();
  return (
    <PageShell nav={<CourseNav />}>
      <div className="mb-auto w-full max-w-5xl self-stretch sm:self-center">
        <div className="scrim-soft mx-auto max-w-xl">
          <h1 className="text-center font-display text-4xl text-white sm:text-5xl">Courses</h1>
          <p className="mt-3 text-center text-stone-300">
            Guided programmes to work through at your own pace.
          </p>
          {error && (
            <p role="alert" className="mt-8 text-center text-red-200">
              The courses could not be loaded: {error}
            </p>
          )}
        </div>
        {courses === null ? (
          <ul
            aria-busy="true"
            aria-label="Loading courses"
            className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3"
          >
            {[0, 1, 2].map((i) => (
              <li key={i} className="h-80 animate-pulse rounded-2xl border border-white/10 bg-stone-950/50" />
            ))}
          </ul>
        ) : courses.length === 0 ? (
          <div className="mx-auto mt-10 max-w-md rounded-2xl border border-white/10 bg-stone-950/85 p-8 text-center backdrop-blur-xl">
            <h2 className="text-xl font-semibold text-white">Coming soon</h2>
            <p className="mt-2 text-stone-300">
              Nothing is published yet.{' '}
              {signedIn
                ? 'Your dashboard will show them as soon as they open.'
                : 'Create a free account and you will find them on your dashboard as soon as they open.'}
            </p>
            {!signedIn && (
              <Link
                to="/join"
                className="mt-6 inline-flex rounded-full bg-accent-400 px-6 py-2.5 font-semibold text-stone-950 hover:bg-accent-300"
              >
                Create an account
              </Link>
            )}
          </div>
        ) : (
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {courses.map((course, index) => (
              <li key={course.id} className="flex">
                <CourseCard course={course} signedIn={signedIn} pending={pending} eager={index === 0} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageShell>
  );
}
