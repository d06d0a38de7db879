import type { DraggableProvidedDragHandleProps } from '@hello-pangea/dnd';

const HANDLE =
  'flex size-8 shrink-0 cursor-grab items-center justify-center rounded-md text-stone-400 hover:bg-white/10 hover:text-white focus-visible:bg-white/10';

/**
 * The grip a section or lesson is dragged by; @hello-pangea/dnd makes it a focusable button
 * (role, tabIndex).
 */
export function DragHandle({
  props,
  label,
}: {
  props: DraggableProvidedDragHandleProps | null;
  label: string;
}) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the spread props carry role="button" and tabIndex
    <span {...props} aria-label={label} className={HANDLE}>
      ⠿
    </span>
  );
}
