import type { AdminSection } from '@common/schemas/course-views';
import { Draggable } from '@hello-pangea/dnd';
import { formatMinutes } from '../format';
import { DragHandle } from './drag-handle';

const KIND_ICON = { video: '▶', audio: '♪', text: '¶' } as const;

/** A lesson in the outline: dragged by its handle (within its section or into another), chosen by a click. */
export function OutlineLesson({
  lesson,
  index,
  selected,
  onSelect,
}: {
  lesson: AdminSection['lessons'][number];
  index: number;
  selected: boolean;
  onSelect: (lessonId: string) => void;
}) {
  return (
    <Draggable draggableId={lesson.id} index={index}>
      {(drag, state) => (
        <li
          ref={drag.innerRef}
          {...drag.draggableProps}
          data-testid="outline-lesson"
          className={`flex items-center gap-1 rounded-lg border ${
            selected
              ? 'border-accent-400/70 bg-accent-400/10'
              : state.isDragging
                ? 'border-accent-400 bg-stone-800'
                : 'border-transparent bg-white/5'
          }`}
        >
          <DragHandle props={drag.dragHandleProps} label={`Move lesson ${lesson.title}`} />
          <button
            type="button"
            onClick={() => onSelect(lesson.id)}
            aria-current={selected ? 'true' : undefined}
            className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-white/5"
          >
            <span aria-hidden="true" className="text-stone-400">
              {KIND_ICON[lesson.kind]}
            </span>
            <span className="min-w-0 flex-1 truncate text-stone-100" data-testid="outline-lesson-title">
              {lesson.title}
            </span>
            {lesson.freePreview && <span className="text-xs text-accent-300">Preview</span>}
            {lesson.durationMinutes ? (
              <span className="text-xs text-stone-400">{formatMinutes(lesson.durationMinutes)}</span>
            ) : null}
          </button>
        </li>
      )}
    </Draggable>
  );
}
