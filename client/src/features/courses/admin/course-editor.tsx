import { PREVIEW_VIEWERS } from '@common/courses';
import { useCallback, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useUnsavedChanges } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useAdminCourse, useDeleteCourse } from './api';
import { CourseDetailsForm } from './course-details-form';
import { LessonEditor } from './lesson-editor';
import { OutlineEditor } from './outline-editor';

const PREVIEW_WORDS = { visitor: 'a visitor', free: 'a free member', paid: 'a paid member' } as const;

/** One course: its settings, its outline (drag to order) and the lesson being edited. */
export function CourseEditor({ courseId, onClose }: { courseId: string; onClose: () => void }) {
  const course = useAdminCourse(courseId);
  const remove = useDeleteCourse();
  const confirm = useConfirm();
  const notices = useNotices();
  const [lessonId, setLessonId] = useState<string | null>(null);
  // Two forms on one screen: leaving the section guards both; another lesson guards the lesson's.
  const [courseUnsaved, setCourseUnsaved] = useState(false);
  const [lessonUnsaved, setLessonUnsaved] = useState<string | null>(null);
  const onCourseUnsaved = useCallback((unsaved: boolean) => setCourseUnsaved(unsaved), []);
  const onLessonUnsaved = useCallback((unsaved: string | null) => setLessonUnsaved(unsaved), []);
  useUnsavedChanges(
    [courseUnsaved ? 'the course settings' : '', lessonUnsaved ?? ''].filter(Boolean).join(' and ') || null,
  );
  const chooseLesson = async (id: string) => {
    if (id === lessonId) return;
    if (lessonUnsaved) {
      const leave = await confirm({
        title: 'Leave this lesson without saving?',
        message: `You have unsaved changes: ${lessonUnsaved}. They will be lost.`,
        confirmLabel: 'Leave without saving',
        destructive: true,
      });
      if (!leave) return;
    }
    setLessonUnsaved(null);
    setLessonId(id);
  };

  if (course.isPending) return <p className="text-stone-300">Loading the course…</p>;
  if (course.isError)
    return (
      <div className="space-y-4">
        <Button variant="ghost" onClick={onClose}>
          ← All courses
        </Button>
        <p role="alert" className="text-red-200">
          The course could not be loaded: {course.error.message}
        </p>
      </div>
    );
  const data = course.data;
  const lessonStillThere = data.sections.some((s) => s.lessons.some((l) => l.id === lessonId));

  const deleteCourse = async () => {
    const ok = await confirm({
      title: `Delete “${data.title}”?`,
      message: (
        <>
          <p>
            Its sections, lessons, videos and downloads are deleted for good, and its members’ progress with
            them.
          </p>
          {data.published && <p>It is published: members lose it at once.</p>}
        </>
      ),
      confirmLabel: 'Delete course',
      destructive: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(data.id);
      notices.success(`Deleted “${data.title}”.`);
      onClose();
    } catch (error) {
      notices.error('The course was not deleted.', { detail: (error as Error).message });
    }
  };

  return (
    <section aria-labelledby="course-editor-heading" className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="ghost" onClick={onClose}>
          ← All courses
        </Button>
        <h1 id="course-editor-heading" className="min-w-0 flex-1 truncate text-2xl font-semibold text-white">
          {data.title}
        </h1>
        <span
          className={`rounded-full px-3 py-1 text-xs font-semibold ${data.published ? 'bg-emerald-500/20 text-emerald-200' : 'bg-white/10 text-stone-300'}`}
        >
          {data.published ? 'Published' : 'Draft'}
        </span>
      </div>

      <Card className="flex flex-wrap items-center gap-3 !py-4">
        <span className="text-sm text-stone-300">Preview as</span>
        {PREVIEW_VIEWERS.map((preview) => (
          <a
            key={preview}
            href={`/courses/${data.slug}?as=${preview}`}
            target="_blank"
            rel="noopener"
            className="rounded-lg border border-white/15 px-3 py-1.5 text-sm font-semibold text-stone-100 hover:bg-white/10"
          >
            {PREVIEW_WORDS[preview]}
          </a>
        ))}
        <Button variant="danger" className="ml-auto" onClick={deleteCourse} disabled={remove.isPending}>
          Delete course
        </Button>
      </Card>

      <CourseDetailsForm course={data} onUnsaved={onCourseUnsaved} />

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 2xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <OutlineEditor course={data} selected={lessonStillThere ? lessonId : null} onSelect={chooseLesson} />
        {lessonId && lessonStillThere ? (
          <LessonEditor
            key={lessonId}
            courseId={data.id}
            lessonId={lessonId}
            onClose={() => setLessonId(null)}
            onUnsaved={onLessonUnsaved}
          />
        ) : (
          <Card className="text-sm text-stone-300">
            Choose a lesson in the outline to write its text, add its video or audio and its downloads.
          </Card>
        )}
      </div>
    </section>
  );
}
