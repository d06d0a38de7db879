import type { AdminCourse, AdminSection } from '@common/schemas/course-views';
import { DragDropContext, Droppable, type DropResult } from '@hello-pangea/dnd';
import { type FormEvent, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { INPUT_CLASS } from '../../../components/ui/text-field';
import { useAddSection, useReorder } from './api';
import { moved, orderOf } from './outline-order';
import { OutlineSection } from './outline-section';

/**
 * Sections and their lessons, ordered by dragging (@hello-pangea/dnd, as the playlist strip)
 * or by keyboard: focus a handle, Space, arrow keys, Space. A lesson can move to another
 * section (outline-section.tsx, outline-lesson.tsx). The new order shows at once and is saved as
 * a whole.
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
  const notices = useNotices();
  const [optimistic, setOptimistic] = useState<AdminSection[] | null>(null);
  const [newSection, setNewSection] = useState('');
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

  return (
    // No backdrop blur here: a backdrop-filter makes the card the frame of position: fixed, and
    // @hello-pangea/dnd draws the lifted item fixed at its place on the screen, which then showed
    // it off by the card's own offset (the console's sidebar width).
    <Card className="!p-4 !backdrop-blur-none sm:!p-5">
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
                <OutlineSection
                  key={section.id}
                  courseId={course.id}
                  section={section}
                  index={index}
                  selected={selected}
                  onSelect={onSelect}
                  settingsOpen={settingsOf === section.id}
                  onToggleSettings={(open) => setSettingsOf(open ? section.id : null)}
                />
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
