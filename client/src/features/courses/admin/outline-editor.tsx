import type { AdminCourse, AdminSection } from '@common/schemas/course-views';
import {
  DragDropContext,
  Draggable,
  type DraggableProvidedDragHandleProps,
  Droppable,
  type DropResult,
} from '@hello-pangea/dnd';
import { type FormEvent, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { INPUT_CLASS } from '../../../components/ui/text-field';
import { formatMinutes } from '../format';
import { useAddLesson, useAddSection, useDeleteSection, useReorder } from './api';
import { moved, orderOf } from './outline-order';
import { SectionSettings } from './section-settings';

const KIND_ICON = { video: '▶', audio: '♪', text: '¶' } as const;
const HANDLE =
  'flex size-8 shrink-0 cursor-grab items-center justify-center rounded-md text-stone-400 hover:bg-white/10 hover:text-white focus-visible:bg-white/10';

/** The grip a section or lesson is dragged by; @hello-pangea/dnd makes it a focusable button (role, tabIndex). */
function DragHandle({ props, label }: { props: DraggableProvidedDragHandleProps | null; label: string }) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the spread props carry role="button" and tabIndex
    <span {...props} aria-label={label} className={HANDLE}>
      ⠿
    </span>
  );
}

function dripWords(section: AdminSection): string | null {
  if (section.drip.kind === 'days')
    return `Opens ${section.drip.days} day${section.drip.days === 1 ? '' : 's'} after the member starts`;
  if (section.drip.kind === 'date') return `Opens on ${section.drip.date}`;
  return null;
}

/**
 * Sections and their lessons, ordered by dragging (@hello-pangea/dnd, as the playlist strip)
 * or by keyboard: focus a handle, Space, arrow keys, Space. A lesson can move to another
 * section. The new order shows at once and is saved as a whole.
 */
export function OutlineEditor({
  course,
  selected,
  onSelect,
}: {
  course: AdminCourse;
  selected: string | null;
  onSelect: (lessonId: string) => void;
}) {
  const reorder = useReorder(course.id);
  const addSection = useAddSection(course.id);
  const addLesson = useAddLesson(course.id);
  const deleteSection = useDeleteSection(course.id);
  const confirm = useConfirm();
  const notices = useNotices();
  const [optimistic, setOptimistic] = useState<AdminSection[] | null>(null);
  const [newSection, setNewSection] = useState('');
  const [newLessons, setNewLessons] = useState<Record<string, string>>({});
  const [settingsOf, setSettingsOf] = useState<string | null>(null);
  const sections = optimistic ?? course.sections;

  const onDragEnd = async (result: DropResult) => {
    const next = moved(sections, {
      type: result.type === 'SECTION' ? 'SECTION' : 'LESSON',
      from: { list: result.source.droppableId, index: result.source.index },
      to: result.destination
        ? { list: result.destination.droppableId, index: result.destination.index }
        : null,
    });
    if (next === sections) return;
    setOptimistic(next);
    try {
      await reorder.mutateAsync(orderOf(next));
      notices.success('New order saved.', { seconds: 2 });
    } catch (error) {
      notices.error('The new order was not saved.', { detail: (error as Error).message });
    } finally {
      setOptimistic(null);
    }
  };

  const submitSection = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await addSection.mutateAsync(newSection);
      setNewSection('');
    } catch (error) {
      notices.error('The section was not added.', { detail: (error as Error).message });
    }
  };

  const submitLesson = (sectionId: string) => async (event: FormEvent) => {
    event.preventDefault();
    try {
      const after = await addLesson.mutateAsync({ sectionId, title: newLessons[sectionId] ?? '' });
      setNewLessons((current) => ({ ...current, [sectionId]: '' }));
      const added = after.sections.find((s) => s.id === sectionId)?.lessons.at(-1);
      if (added) onSelect(added.id);
    } catch (error) {
      notices.error('The lesson was not added.', { detail: (error as Error).message });
    }
  };

  const removeSection = async (section: AdminSection) => {
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
    <Card className="!p-4 sm:!p-5">
      <h2 className="text-lg font-semibold text-white">Outline</h2>
      <p className="mt-1 text-xs text-stone-400">
        Drag the ⠿ handles to order sections and lessons, or focus one and press Space, the arrow keys, then
        Space.
      </p>
      <DragDropContext onDragEnd={onDragEnd}>
        <Droppable droppableId="sections" type="SECTION">
          {(drop) => (
            <ol ref={drop.innerRef} {...drop.droppableProps} aria-label="Sections" className="mt-4 space-y-4">
              {sections.map((section, index) => (
                <Draggable key={section.id} draggableId={`section-${section.id}`} index={index}>
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
                          {dripWords(section) && (
                            <p className="text-xs text-amber-200">{dripWords(section)}</p>
                          )}
                        </div>
                        <Button
                          variant="ghost"
                          className="!px-2.5 !py-1.5"
                          aria-expanded={settingsOf === section.id}
                          onClick={() => setSettingsOf(settingsOf === section.id ? null : section.id)}
                        >
                          Settings<span className="sr-only"> of {section.title}</span>
                        </Button>
                        <Button
                          variant="ghost"
                          className="!px-2.5 !py-1.5"
                          onClick={() => removeSection(section)}
                        >
                          ✕<span className="sr-only">Delete section {section.title}</span>
                        </Button>
                      </div>
                      {settingsOf === section.id && (
                        <SectionSettings
                          courseId={course.id}
                          section={section}
                          onDone={() => setSettingsOf(null)}
                        />
                      )}
                      <Droppable droppableId={section.id} type="LESSON">
                        {(lessonDrop, over) => (
                          <ol
                            ref={lessonDrop.innerRef}
                            {...lessonDrop.droppableProps}
                            aria-label={`Lessons of ${section.title}`}
                            className={`min-h-10 space-y-1 p-2 ${over.isDraggingOver ? 'bg-accent-400/5' : ''}`}
                          >
                            {section.lessons.map((lesson, lessonIndex) => (
                              <Draggable key={lesson.id} draggableId={lesson.id} index={lessonIndex}>
                                {(lessonDrag, lessonState) => (
                                  <li
                                    ref={lessonDrag.innerRef}
                                    {...lessonDrag.draggableProps}
                                    data-testid="outline-lesson"
                                    className={`flex items-center gap-1 rounded-lg border ${
                                      lesson.id === selected
                                        ? 'border-accent-400/70 bg-accent-400/10'
                                        : lessonState.isDragging
                                          ? 'border-accent-400 bg-stone-800'
                                          : 'border-transparent bg-white/5'
                                    }`}
                                  >
                                    <DragHandle
                                      props={lessonDrag.dragHandleProps}
                                      label={`Move lesson ${lesson.title}`}
                                    />
                                    <button
                                      type="button"
                                      onClick={() => onSelect(lesson.id)}
                                      aria-current={lesson.id === selected ? 'true' : undefined}
                                      className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-white/5"
                                    >
                                      <span aria-hidden="true" className="text-stone-400">
                                        {KIND_ICON[lesson.kind]}
                                      </span>
                                      <span
                                        className="min-w-0 flex-1 truncate text-stone-100"
                                        data-testid="outline-lesson-title"
                                      >
                                        {lesson.title}
                                      </span>
                                      {lesson.freePreview && (
                                        <span className="text-xs text-accent-300">Preview</span>
                                      )}
                                      {lesson.durationMinutes ? (
                                        <span className="text-xs text-stone-400">
                                          {formatMinutes(lesson.durationMinutes)}
                                        </span>
                                      ) : null}
                                    </button>
                                  </li>
                                )}
                              </Draggable>
                            ))}
                            {lessonDrop.placeholder}
                          </ol>
                        )}
                      </Droppable>
                      <form
                        onSubmit={submitLesson(section.id)}
                        className="flex gap-2 border-t border-white/10 p-2"
                      >
                        <label className="sr-only" htmlFor={`new-lesson-${section.id}`}>
                          New lesson in {section.title}
                        </label>
                        <input
                          id={`new-lesson-${section.id}`}
                          className={`${INPUT_CLASS} !py-1.5 text-sm`}
                          placeholder="New lesson title"
                          maxLength={160}
                          value={newLessons[section.id] ?? ''}
                          onChange={(e) =>
                            setNewLessons((current) => ({ ...current, [section.id]: e.target.value }))
                          }
                        />
                        <Button
                          type="submit"
                          variant="secondary"
                          className="shrink-0 whitespace-nowrap !py-1.5"
                          disabled={!newLessons[section.id]?.trim()}
                        >
                          Add lesson
                        </Button>
                      </form>
                    </li>
                  )}
                </Draggable>
              ))}
              {drop.placeholder}
            </ol>
          )}
        </Droppable>
      </DragDropContext>
      <form onSubmit={submitSection} className="mt-4 flex gap-2">
        <label className="sr-only" htmlFor={`new-section-${course.id}`}>
          New section title
        </label>
        <input
          id={`new-section-${course.id}`}
          className={`${INPUT_CLASS} !py-2 text-sm`}
          placeholder="New section title, e.g. Week 1"
          maxLength={160}
          value={newSection}
          onChange={(e) => setNewSection(e.target.value)}
        />
        <Button
          type="submit"
          className="shrink-0 whitespace-nowrap"
          disabled={!newSection.trim() || addSection.isPending}
        >
          Add section
        </Button>
      </form>
    </Card>
  );
}
