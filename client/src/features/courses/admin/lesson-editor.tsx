import type { AdminLesson } from '@common/schemas/course-views';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/text-field';
import '../lesson-body.css';
import { MarkdownField, useMarkdownPreview } from '../../../components/console/markdown-field';
import { previewMarkdown, useAdminLesson, useDeleteLesson, useUpdateLesson } from './api';
import { LessonFiles } from './lesson-files';

type Draft = Pick<AdminLesson, 'title' | 'markdown' | 'freePreview' | 'durationMinutes'>;
const pick = (lesson: AdminLesson): Draft => ({
  title: lesson.title,
  markdown: lesson.markdown,
  freePreview: lesson.freePreview,
  durationMinutes: lesson.durationMinutes,
});

/** One lesson: title, text in Markdown with its live preview, free preview, duration, its files. */
export interface LessonEditorProps {
  courseId: string;
  lessonId: string;
  onClose: () => void;
  /** What is typed and not saved yet, or null (the editor guards leaving with it). */
  onUnsaved: (unsaved: string | null) => void;
}

export function LessonEditor({ courseId, lessonId, onClose, onUnsaved }: LessonEditorProps) {
  const lesson = useAdminLesson(courseId, lessonId);
  if (lesson.isPending) return <Card className="text-stone-300">Loading the lesson…</Card>;
  if (lesson.isError)
    return (
      <Card role="alert" className="text-red-200">
        The lesson could not be loaded: {lesson.error.message}
      </Card>
    );
  return <LessonForm courseId={courseId} lesson={lesson.data} onClose={onClose} onUnsaved={onUnsaved} />;
}

function LessonForm({
  courseId,
  lesson,
  onClose,
  onUnsaved,
}: Omit<LessonEditorProps, 'lessonId'> & { lesson: AdminLesson }) {
  const ids = useId();
  const update = useUpdateLesson(courseId, lesson.id);
  const remove = useDeleteLesson(courseId);
  const confirm = useConfirm();
  const notices = useNotices();
  const [draft, setDraft] = useState<Draft>(() => pick(lesson));
  const saved = pick(lesson);
  const changed = (Object.keys(saved) as Array<keyof Draft>).filter((key) => draft[key] !== saved[key]);
  const unsaved = changed.length ? `the lesson “${lesson.title}”` : null;
  useEffect(() => onUnsaved(unsaved), [onUnsaved, unsaved]);
  useEffect(() => () => onUnsaved(null), [onUnsaved]);
  // The course's own pictures come with links signed for this browser, as on the lesson page.
  const preview = useMarkdownPreview(
    draft.markdown,
    (markdown, signal) => previewMarkdown(markdown, lesson.id, signal),
    lesson.id,
  );
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const after = await update.mutateAsync(Object.fromEntries(changed.map((key) => [key, draft[key]])));
      setDraft(pick(after));
      notices.success('Lesson saved.');
    } catch (error) {
      notices.error('The lesson was not saved.', { detail: (error as Error).message });
    }
  };

  const deleteLesson = async () => {
    const ok = await confirm({
      title: `Delete the lesson “${lesson.title}”?`,
      message: 'Its text, video or audio and downloads are deleted for good.',
      confirmLabel: 'Delete lesson',
      destructive: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(lesson.id);
      notices.success(`Deleted “${lesson.title}”.`);
      onClose();
    } catch (error) {
      notices.error('The lesson was not deleted.', { detail: (error as Error).message });
    }
  };

  return (
    <Card className="space-y-6" data-testid="lesson-editor">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="min-w-0 flex-1 truncate text-lg font-semibold text-white">Lesson: {lesson.title}</h2>
        <Button variant="danger" onClick={deleteLesson} disabled={remove.isPending}>
          Delete lesson
        </Button>
      </div>
      <form onSubmit={submit} className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
          <TextField
            label="Lesson title"
            value={draft.title}
            maxLength={160}
            required
            onChange={(e) => set('title', e.target.value)}
          />
          <TextField
            label="Duration (minutes)"
            type="number"
            min={0}
            max={1440}
            value={draft.durationMinutes ?? ''}
            onChange={(e) =>
              set(
                'durationMinutes',
                e.target.value === '' ? null : Math.max(0, Math.round(Number(e.target.value))),
              )
            }
          />
        </div>
        <CheckboxField
          label="Free preview: anyone who sees the course may open this lesson"
          checked={draft.freePreview}
          onChange={(value) => set('freePreview', value)}
        />
        <MarkdownField
          id={ids}
          value={draft.markdown}
          onChange={(markdown) => set('markdown', markdown)}
          html={preview}
          height="min-h-72"
          placeholder={
            '## What you will do\n\nWrite in **Markdown**: headings, lists, [links](https://example.com), pictures from the media library.'
          }
          empty={<p className="text-sm text-stone-400">The lesson as members will read it shows here.</p>}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={changed.length === 0 || update.isPending}>
            {update.isPending ? 'Saving…' : 'Save lesson'}
          </Button>
          {changed.length > 0 && (
            <Button variant="ghost" onClick={() => setDraft(saved)}>
              Undo changes
            </Button>
          )}
        </div>
      </form>
      <LessonFiles courseId={courseId} lesson={lesson} />
    </Card>
  );
}
