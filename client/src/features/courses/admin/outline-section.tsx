import { formatDay } from '@common/dates';
import type { AdminSection } from '@common/schemas/course-views';
import { Draggable, Droppable } from '@hello-pangea/dnd';
import { type FormEvent, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { INPUT_CLASS } from '../../../components/ui/text-field';
import { useAddLesson, useDeleteSection } from './api';
import { DragHandle } from './drag-handle';
import { OutlineLesson } from './outline-lesson';
import { SectionSettings } from './section-settings';

function dripWords(section: AdminSection): string | null {
  if (section.drip.kind === 'days')
    return `Opens ${section.drip.days} day${section.drip.days === 1 ? '' : 's'} after the member starts`;
  if (section.drip.kind === 'date') return `Opens on ${formatDay(section.drip.date)}`;
  return null;
}

/**
 * A section of the outline: dragged by its handle among the sections, its settings (one
 * section's at a time, chosen by the outline), its lessons (a drop target of their own) and the
 * form that adds one. Deleting it asks first.
 */
export function OutlineSection({
  courseId,
  section,
  index,
  selected,
  onSelect,
  settingsOpen,
  onToggleSettings,
}: {
  courseId: string;
  section: AdminSection;
  index: number;
  selected: string | null;
  onSelect: (lessonId: string) => void;
  settingsOpen: boolean;
  onToggleSettings: (open: boolean) => void;
}) {
  const addLesson = useAddLesson(courseId);
  const deleteSection = useDeleteSection(courseId);
  const confirm = useConfirm();
  const notices = useNotices();
  const [newLesson, setNewLesson] = useState('');

  const submitLesson = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const after = await addLesson.mutateAsync({ sectionId: section.id, title: newLesson });
      setNewLesson('');
      const added = after.sections.find((s) => s.id === section.id)?.lessons.at(-1);
      if (added) onSelect(added.id);
    } catch (error) {
      notices.error('The lesson was not added.', { detail: (error as Error).message });
    }
  };

  const removeSection = async () => {
    const ok = await confirm({
      title: `Delete the section “${section.title}”?`,
      message: section.lessons.length
        ? `Its ${section.lessons.length} lesson(s), with their videos and downloads, are deleted too.`
        : 'It has no lessons.',
      confirmLabel: 'Delete section',
      destructive: true,
    });
    if (!ok) return;
    try {
      await deleteSection.mutateAsync(section.id);
    } catch (error) {
      notices.error('The section was not deleted.', { detail: (error as Error).message });
    }
  };

  return (
    <Draggable draggableId={`section-${section.id}`} index={index}>
      {(drag, state) => (
        <li
          ref={drag.innerRef}
          {...drag.draggableProps}
          data-testid="outline-section"
          className={`rounded-xl border bg-stone-900/90 ${state.isDragging ? 'border-accent-400 shadow-2xl shadow-black' : 'border-white/10'}`}
        >
          <div className="flex items-center gap-2 border-b border-white/10 p-2">
            <DragHandle props={drag.dragHandleProps} label={`Move section ${section.title}`} />
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold text-white">
                {index + 1}. {section.title}
              </p>
              {dripWords(section) && <p className="text-xs text-amber-200">{dripWords(section)}</p>}
            </div>
            <Button
              variant="ghost"
              className="!px-2.5 !py-1.5"
              aria-expanded={settingsOpen}
              onClick={() => onToggleSettings(!settingsOpen)}
            >
              Settings<span className="sr-only"> of {section.title}</span>
            </Button>
            <Button variant="ghost" className="!px-2.5 !py-1.5" onClick={removeSection}>
              ✕<span className="sr-only">Delete section {section.title}</span>
            </Button>
          </div>
          {settingsOpen && (
            <SectionSettings courseId={courseId} section={section} onDone={() => onToggleSettings(false)} />
          )}
          <Droppable droppableId={section.id} type="LESSON">
            {(drop, over) => (
              <ol
                ref={drop.innerRef}
                {...drop.droppableProps}
                aria-label={`Lessons of ${section.title}`}
                className={`min-h-10 space-y-1 p-2 ${over.isDraggingOver ? 'bg-accent-400/5' : ''}`}
              >
                {section.lessons.map((lesson, lessonIndex) => (
                  <OutlineLesson
                    key={lesson.id}
                    lesson={lesson}
                    index={lessonIndex}
                    selected={lesson.id === selected}
                    onSelect={onSelect}
                  />
                ))}
                {drop.placeholder}
              </ol>
            )}
          </Droppable>
          <form onSubmit={submitLesson} className="flex gap-2 border-t border-white/10 p-2">
            <label className="sr-only" htmlFor={`new-lesson-${section.id}`}>
              New lesson in {section.title}
            </label>
            <input
              id={`new-lesson-${section.id}`}
              className={`${INPUT_CLASS} !py-1.5 text-sm`}
              placeholder="New lesson title"
              maxLength={160}
              value={newLesson}
              onChange={(e) => setNewLesson(e.target.value)}
            />
            <Button
              type="submit"
              variant="secondary"
              className="shrink-0 whitespace-nowrap !py-1.5"
              disabled={!newLesson.trim()}
            >
              Add lesson
            </Button>
          </form>
        </li>
      )}
    </Draggable>
  );
}
