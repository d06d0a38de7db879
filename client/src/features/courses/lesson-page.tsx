import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { Button } from '../../components/ui/button';
import { CourseNav, useSignedIn } from './components/course-nav';
import { Downloads } from './components/downloads';
import { LessonPlayer } from './components/lesson-player';
import { LockNote } from './components/lock-note';
import { CheckoutReturn, MemberOffer, useCheckoutReturn } from './components/member-offer';
import { Outline } from './components/outline';
import { ProgressBar } from './components/progress-bar';
import { formatMinutes } from './format';
import './lesson-body.css';
import { PreviewBanner, usePreviewViewer } from './preview-banner';
import { courseKeys, useCompleteLesson, useCourseOutline, useLesson } from './queries';

const LINK_BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-white/15 bg-white/10 px-4 py-2.5 text-sm font-semibold text-stone-100 hover:bg-white/15';

/** A lesson: its video or audio, its text and downloads, previous and next, and marking it done. */
export function LessonPage() {
  const { slug = '', lessonId = '' } = useParams();
  const preview = usePreviewViewer();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lessonQuery = useLesson(slug, lessonId, preview);
  const outline = useCourseOutline(slug, preview);
  const complete = useCompleteLesson();
  const lesson = lessonQuery.data;
  const returning = useCheckoutReturn() && signedIn;
  usePageMeta({
    title: lesson?.title ?? 'Lesson',
    description: lesson ? `${lesson.title}, a lesson of ${lesson.course.title}.` : 'A lesson.',
  });
  const query = preview ? `?as=${preview}` : '';
  const keepsProgress = signedIn && !preview;
  const lessonUrl = (id: string) => `/courses/${slug}/lessons/${id}${query}`;

  const completeAndContinue = async () => {
    if (!lesson) return;
    const result = await complete.mutateAsync(lesson.id);
    navigate(result.next ? lessonUrl(result.next.id) : `/courses/${slug}${query}`);
  };

  return (
    <PageShell nav={<CourseNav showCourses />}>
      <div className="mb-auto grid w-full max-w-6xl gap-8 self-stretch lg:grid-cols-[minmax(0,1fr)_20rem] xl:self-center">
        <div className="min-w-0">
          <PreviewBanner preview={preview} />
          {/* Back from Stripe Checkout: how it went; the lesson opens once the payment is confirmed. */}
          {returning && (
            <CheckoutReturn
              onPaid={() => void queryClient.invalidateQueries({ queryKey: courseKeys.all })}
              courseId={lesson?.course.id}
            />
          )}
          {lessonQuery.isError ? (
            <div className="rounded-2xl border border-white/10 bg-stone-950/85 p-8 backdrop-blur-xl">
              <h1 className="font-display text-3xl text-white">Lesson not found</h1>
              <p className="mt-3 text-stone-300">{lessonQuery.error.message}</p>
              <Link
                to={`/courses/${slug}${query}`}
                className="mt-4 inline-block font-semibold text-accent-300"
              >
                ← Back to the course
              </Link>
            </div>
          ) : !lesson ? (
            <p className="text-stone-300" aria-busy="true">
              Loading the lesson…
            </p>
          ) : (
            <article className="rounded-2xl border border-white/10 bg-stone-950/85 p-5 shadow-2xl shadow-black/40 backdrop-blur-xl sm:p-8">
              <nav aria-label="Breadcrumb" className="text-sm text-stone-400">
                <Link
                  to={`/courses/${slug}${query}`}
                  className="font-semibold text-accent-300 hover:text-accent-400"
                >
                  {lesson.course.title}
                </Link>
                <span aria-hidden="true"> › </span>
                {lesson.section.title}
              </nav>
              <h1 className="mt-2 font-display text-3xl text-white sm:text-4xl">{lesson.title}</h1>
              <p className="mt-2 text-sm text-stone-400">
                {[
                  formatMinutes(lesson.durationMinutes),
                  lesson.freePreview ? 'Free preview' : '',
                  lesson.completed ? '✓ Completed' : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {lesson.lock ? (
                <div className="mt-6 rounded-xl border border-white/10 bg-black/30 p-5">
                  <LockNote
                    lock={lesson.lock}
                    offer={lesson.offer}
                    signedIn={preview ? preview !== 'visitor' : signedIn}
                    memberOffer={
                      lesson.viewer.kind === 'free' && (!preview || preview === 'free') ? (
                        <MemberOffer
                          offer={lesson.offer}
                          returnPath={`/courses/${lesson.course.slug}/lessons/${lesson.id}`}
                          preview={preview === 'free'}
                          courseId={lesson.course.id}
                        />
                      ) : undefined
                    }
                  />
                </div>
              ) : (
                <>
                  {lesson.media && (
                    <div className="mt-6">
                      <LessonPlayer
                        key={lesson.id}
                        lesson={lesson}
                        keepsPosition={keepsProgress}
                        onCompleted={() => void queryClient.invalidateQueries({ queryKey: courseKeys.all })}
                        onLinkFailed={() => void lessonQuery.refetch()}
                      />
                    </div>
                  )}
                  {lesson.html && (
                    // Sanitised on the server (marked, then sanitize-html) when the lesson was saved.
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
                    <div className="lesson-body mt-6" dangerouslySetInnerHTML={{ __html: lesson.html }} />
                  )}
                  <Downloads files={lesson.downloads} />
                </>
              )}
              {lesson.progress &&
                !preview &&
                lesson.viewer.kind !== 'admin' &&
                (!lesson.lock || lesson.lock.reason === 'drip') && (
                  <div className="mt-8">
                    <ProgressBar
                      progress={lesson.progress}
                      label={`Your progress in ${lesson.course.title}`}
                    />
                  </div>
                )}
              <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-white/10 pt-6">
                {lesson.previous && (
                  <Link to={lessonUrl(lesson.previous.id)} className={LINK_BUTTON}>
                    ← Previous<span className="sr-only">: {lesson.previous.title}</span>
                  </Link>
                )}
                <div className="ml-auto flex flex-wrap gap-3">
                  {keepsProgress && !lesson.lock && !lesson.completed && (
                    <Button onClick={completeAndContinue} disabled={complete.isPending}>
                      {complete.isPending ? 'Saving…' : 'Complete and continue'}
                    </Button>
                  )}
                  {lesson.next && (lesson.completed || !keepsProgress || lesson.lock) && (
                    <Link to={lessonUrl(lesson.next.id)} className={LINK_BUTTON}>
                      Next: {lesson.next.title} →
                    </Link>
                  )}
                </div>
              </div>
              {complete.isError && (
                <p role="alert" className="mt-3 text-sm text-red-200">
                  Not saved: {complete.error.message}
                </p>
              )}
            </article>
          )}
        </div>
        <aside aria-label="Course outline" className="min-w-0">
          {outline.data && (
            <div className="rounded-2xl border border-white/10 bg-stone-950/85 p-4 backdrop-blur-xl lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
              <p className="mb-3 text-sm font-semibold uppercase tracking-wider text-stone-400">
                In this course
              </p>
              <Outline
                slug={slug}
                sections={outline.data.sections}
                query={query}
                currentLessonId={lessonId}
              />
            </div>
          )}
        </aside>
      </div>
    </PageShell>
  );
}
