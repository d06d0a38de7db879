import { COURSE_ACCESS_LABELS, COVER_SIZES } from '@common/courses';
import { Link, useParams } from 'react-router';
import { NextPageNotice } from '../../components/page/next-page-notice';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { CourseCover } from './components/course-cover';
import { CourseNav, useSignedIn } from './components/course-nav';
import { LockNote } from './components/lock-note';
import { CheckoutReturn, MemberOffer, useCheckoutReturn } from './components/member-offer';
import { Outline } from './components/outline';
import { ProgressBar } from './components/progress-bar';
import { formatMinutes } from './format';
import { PreviewBanner, usePreviewViewer } from './preview-banner';
import { useCourse } from './use-course-data';

const ACTION_CLASS =
  'inline-flex items-center rounded-full bg-accent-400 px-6 py-2.5 font-semibold text-stone-950 shadow-lg shadow-black/30 hover:bg-accent-300';

/** A course: what it is, how far the reader is, and its outline with locks and opening dates. */
export function CoursePage() {
  const { slug = '' } = useParams();
  const preview = usePreviewViewer();
  const signedIn = useSignedIn();
  const { data: course, pending, error, notFound, reload } = useCourse(slug, preview);
  const returning = useCheckoutReturn() && signedIn;
  usePageMeta({
    title: course?.title ?? (notFound ? 'Course not found' : 'Course'),
    description: course?.summary || 'A course.',
  });
  const query = preview ? `?as=${preview}` : '';

  return (
    <PageShell nav={<CourseNav showCourses />}>
      <div className="mb-auto w-full max-w-3xl self-stretch sm:self-center">
        <PreviewBanner preview={preview} />
        {/* "Welcome…" when they joined to buy this course. */}
        <NextPageNotice className="mb-4" />
        <Link
          to="/courses"
          className="inline-flex rounded-full bg-stone-950/85 px-3 py-1 text-sm font-semibold text-accent-300 hover:text-accent-400"
        >
          ← All courses
        </Link>
        {notFound ? (
          <div className="mt-6 rounded-2xl border border-white/10 bg-stone-950/85 p-8 backdrop-blur-xl">
            <h1 className="font-display text-3xl text-white">Course not found</h1>
            <p className="mt-3 text-stone-300">There is no course at this address, or it is not open yet.</p>
          </div>
        ) : error ? (
          <p role="alert" className="mt-6 text-red-200">
            The course could not be loaded: {error}
          </p>
        ) : (
          <article className="mt-4 overflow-hidden rounded-2xl border border-white/10 bg-stone-950/85 shadow-2xl shadow-black/40 backdrop-blur-xl">
            {course?.coverUrl && (
              <CourseCover
                id={course.id}
                title={course.title}
                url={course.coverUrl}
                srcset={course.coverSrcset}
                sizes={COVER_SIZES.page}
                eager
                className="aspect-[16/9] w-full"
              />
            )}
            <div className="p-6 sm:p-8">
              {course ? (
                <>
                  <p className="text-xs font-semibold uppercase tracking-widest text-accent-300">
                    {COURSE_ACCESS_LABELS[course.access]}
                    {!course.published && ' · Draft'}
                  </p>
                  <h1 className="mt-2 font-display text-3xl text-white sm:text-4xl">{course.title}</h1>
                  {course.summary && <p className="mt-3 text-lg text-stone-200">{course.summary}</p>}
                  <p className="mt-3 text-sm text-stone-400">
                    {[
                      `${course.lessonCount} lesson${course.lessonCount === 1 ? '' : 's'}`,
                      formatMinutes(course.totalMinutes),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  {course.progress && course.viewer.kind !== 'admin' && !course.lock && (
                    <div className="mt-5">
                      <ProgressBar progress={course.progress} label={`Your progress in ${course.title}`} />
                    </div>
                  )}
                  <div className="mt-6">
                    {returning && <CheckoutReturn onPaid={reload} courseId={course.id} />}
                    {pending ? (
                      <div className="h-11" />
                    ) : course.lock ? (
                      <>
                        <LockNote
                          lock={course.lock}
                          offer={course.offer}
                          signedIn={preview ? preview !== 'visitor' : signedIn}
                          coursePrice={course.coursePrice}
                          returnPath={`/courses/${course.slug}`}
                          memberOffer={
                            course.viewer.kind === 'free' && (!preview || preview === 'free') ? (
                              <MemberOffer
                                offer={course.offer}
                                returnPath={`/courses/${course.slug}`}
                                preview={preview === 'free'}
                                courseId={course.id}
                              />
                            ) : undefined
                          }
                        />
                        {course.next && (
                          <Link
                            to={`/courses/${course.slug}/lessons/${course.next.id}${query}`}
                            className={`${ACTION_CLASS} mt-4`}
                          >
                            Try the free preview: {course.next.title}
                          </Link>
                        )}
                      </>
                    ) : course.next ? (
                      <Link
                        to={`/courses/${course.slug}/lessons/${course.next.id}${query}`}
                        className={ACTION_CLASS}
                      >
                        {course.status === 'continue'
                          ? `Continue: ${course.next.title}`
                          : `Start: ${course.next.title}`}
                      </Link>
                    ) : course.status === 'completed' ? (
                      <p className="font-semibold text-emerald-200">
                        ✓ Completed. Every lesson stays open to review.
                      </p>
                    ) : (
                      <p className="text-stone-300">The next lessons open soon: see the dates below.</p>
                    )}
                  </div>
                </>
              ) : (
                <div aria-busy="true" className="space-y-4">
                  <span className="sr-only">Loading the course…</span>
                  <div className="h-4 w-24 animate-pulse rounded bg-white/10" />
                  <div className="h-10 w-3/4 animate-pulse rounded bg-white/10" />
                  <div className="h-16 animate-pulse rounded bg-white/5" />
                  <div className="h-11 w-48 animate-pulse rounded-full bg-white/10" />
                </div>
              )}
            </div>
          </article>
        )}
        {course && (
          <section
            aria-label="Lessons"
            className="mt-8 rounded-2xl border border-white/10 bg-stone-950/85 p-5 backdrop-blur-xl sm:p-6"
          >
            <Outline slug={course.slug} sections={course.sections} query={query} />
          </section>
        )}
      </div>
    </PageShell>
  );
}
