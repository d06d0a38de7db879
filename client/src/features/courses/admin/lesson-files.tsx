import {
  LESSON_DOWNLOAD_EXTENSIONS,
  LESSON_MEDIA_EXTENSIONS,
  type LessonFileSlot,
  MAX_LESSON_FILE_BYTES,
} from '@common/courses';
import type { AdminLesson } from '@common/schemas/course-views';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { UploadProgress } from '../../../components/ui/upload-progress';
import { formatSize } from '../../../lib/format-size';
import { adminCourseKeys, uploadLessonFile, useRemoveLessonFile } from './api';

interface Sending {
  id: number;
  name: string;
  size: number;
  progress: number;
}

let next = 0;
const MEDIA_ACCEPT = [...LESSON_MEDIA_EXTENSIONS.video, ...LESSON_MEDIA_EXTENSIONS.audio]
  .map((e) => `.${e}`)
  .join(',');
const DOWNLOAD_ACCEPT = LESSON_DOWNLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * A lesson's private files: its one video or audio, and its downloads. Each file goes in its own
 * request with its own progress bar (as in the Media Manager), one after another.
 */
export function LessonFiles({ courseId, lesson }: { courseId: string; lesson: AdminLesson }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const notices = useNotices();
  const removeFile = useRemoveLessonFile(courseId, lesson.id);
  const [sending, setSending] = useState<Sending[]>([]);

  const send = async (slot: LessonFileSlot, files: File[]) => {
    const too = files.filter((f) => f.size > MAX_LESSON_FILE_BYTES);
    for (const file of too)
      notices.error(`${file.name} is larger than ${formatSize(MAX_LESSON_FILE_BYTES)}.`);
    for (const file of files.filter((f) => !too.includes(f))) {
      const entry: Sending = { id: ++next, name: file.name, size: file.size, progress: 0 };
      setSending((list) => [...list, entry]);
      try {
        const after = await uploadLessonFile({
          courseId,
          lessonId: lesson.id,
          slot,
          file,
          onProgress: (progress) =>
            setSending((list) => list.map((s) => (s.id === entry.id ? { ...s, progress } : s))),
        });
        queryClient.setQueryData(adminCourseKeys.lesson(lesson.id), after);
        void queryClient.invalidateQueries({ queryKey: adminCourseKeys.course(courseId) });
        notices.success(`Uploaded ${file.name}.`);
      } catch (error) {
        notices.error(`${file.name} was not uploaded.`, { detail: (error as Error).message });
      } finally {
        setSending((list) => list.filter((s) => s.id !== entry.id));
      }
    }
  };

  const remove = async (fileId: string, name: string) => {
    try {
      await removeFile.mutateAsync(fileId);
      notices.success(`Removed ${name}.`);
    } catch (error) {
      notices.error(`${name} was not removed.`, { detail: (error as Error).message });
    }
  };

  const picker = (slot: LessonFileSlot, label: string) => (
    <label
      htmlFor={`${ids}-${slot}`}
      className="inline-flex cursor-pointer items-center rounded-lg border border-white/15 bg-white/10 px-4 py-2 text-sm font-semibold text-stone-100 hover:bg-white/15 focus-within:outline-2 focus-within:outline-accent-400"
    >
      {label}
      <input
        id={`${ids}-${slot}`}
        type="file"
        className="sr-only"
        multiple={slot === 'download'}
        accept={slot === 'media' ? MEDIA_ACCEPT : DOWNLOAD_ACCEPT}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length) void send(slot, files);
        }}
      />
    </label>
  );

  return (
    <div className="space-y-5 border-t border-white/10 pt-5">
      <section aria-labelledby={`${ids}-media-heading`}>
        <h3
          id={`${ids}-media-heading`}
          className="text-sm font-semibold uppercase tracking-wider text-stone-300"
        >
          Video or audio
        </h3>
        {lesson.media ? (
          <FileRow
            name={lesson.media.name}
            detail={`${lesson.media.kind === 'video' ? 'Video' : 'Audio'} · ${formatSize(lesson.media.size)}`}
            onRemove={() => remove(lesson.media!.id, lesson.media!.name)}
          />
        ) : (
          <p className="mt-2 text-sm text-stone-400">None: a reading lesson.</p>
        )}
        <div className="mt-3">
          {picker('media', lesson.media ? 'Replace the video or audio…' : 'Add a video or audio…')}
        </div>
      </section>
      <section aria-labelledby={`${ids}-downloads-heading`}>
        <h3
          id={`${ids}-downloads-heading`}
          className="text-sm font-semibold uppercase tracking-wider text-stone-300"
        >
          Downloads
        </h3>
        {lesson.downloads.length === 0 && (
          <p className="mt-2 text-sm text-stone-400">None yet: PDF, ZIP, pictures…</p>
        )}
        {lesson.downloads.map((file) => (
          <FileRow
            key={file.id}
            name={file.name}
            detail={formatSize(file.size)}
            onRemove={() => remove(file.id, file.name)}
          />
        ))}
        <div className="mt-3">{picker('download', 'Add downloads…')}</div>
      </section>
      {sending.length > 0 && (
        <ul aria-label="Uploads in progress" className="space-y-2">
          {sending.map((entry) => (
            <li key={entry.id} className="rounded-lg border border-white/10 bg-white/5 p-2.5">
              <p className="truncate text-sm text-stone-100">
                {entry.name} <span className="text-xs text-stone-400">· {formatSize(entry.size)}</span>
              </p>
              <UploadProgress name={entry.name} progress={entry.progress} />
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-stone-400">
        Lesson files are private: members get links that work for them only, for 20 minutes at a time. Up to{' '}
        {formatSize(MAX_LESSON_FILE_BYTES)} each.
      </p>
    </div>
  );
}

function FileRow({ name, detail, onRemove }: { name: string; detail: string; onRemove: () => void }) {
  return (
    <div className="mt-2 flex items-center gap-3 rounded-lg border border-white/10 bg-white/5 px-3 py-2">
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-stone-100">{name}</span>
        <span className="text-xs text-stone-400">{detail}</span>
      </span>
      <Button variant="ghost" className="!px-2.5 !py-1.5" onClick={onRemove}>
        Remove<span className="sr-only"> {name}</span>
      </Button>
    </div>
  );
}
