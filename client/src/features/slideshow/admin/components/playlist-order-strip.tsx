import type { PlaylistItem } from '@common/schemas/playlist';
import { DragDropContext, Draggable, Droppable, type DropResult } from '@hello-pangea/dnd';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { videoFrameSrc } from '../../../../lib/video-frame';

export interface PlaylistOrderStripProps {
  name: string | null;
  items: PlaylistItem[];
  /** Small pictures of the library's files by their URL; an item without one shows the file itself. */
  thumbnails: ReadonlyMap<string, string>;
  saving: boolean;
  onReorder: (from: number, to: number | undefined) => void;
  onRemove: (item: PlaylistItem) => void;
  onSave: () => void;
}

const fileName = (url: string) => decodeURIComponent(url.split('/').pop() ?? url);

/**
 * The selected playlist's play order, dragged sideways. @hello-pangea/dnd's own defaults are
 * the spec's drag numbers (5px or a 120 ms press to start, 0.33–0.55 s drop, edge auto-scroll),
 * and it supports the keyboard: focus an item, Space, arrow keys, Space.
 */
export function PlaylistOrderStrip({
  name,
  items,
  thumbnails,
  saving,
  onReorder,
  onRemove,
  onSave,
}: PlaylistOrderStripProps) {
  const onDragEnd = (result: DropResult) => onReorder(result.source.index, result.destination?.index);
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Playlist Order{name ? `: ${name}` : ''}</h2>
          <p className="text-sm text-stone-400">
            {name
              ? 'Drag to change the order in which the slides play.'
              : 'Select a playlist, or pick items and add a new playlist with them.'}
          </p>
        </div>
        <Button onClick={onSave} disabled={!name || saving}>
          {saving ? 'Saving...' : 'Save Selected Playlist'}
        </Button>
      </div>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-white/15 p-6 text-center text-sm text-stone-400">
          Click images and videos in the library to add them here.
        </p>
      ) : (
        <DragDropContext onDragEnd={onDragEnd}>
          <Droppable droppableId="playlist-order" direction="horizontal">
            {(drop) => (
              <ol
                ref={drop.innerRef}
                {...drop.droppableProps}
                aria-label="Playlist order"
                className="flex gap-3 overflow-x-auto pb-3"
              >
                {items.map((item, index) => (
                  <Draggable key={item.url} draggableId={item.url} index={index}>
                    {(drag, snapshot) => (
                      <li
                        ref={drag.innerRef}
                        {...drag.draggableProps}
                        {...drag.dragHandleProps}
                        data-url={item.url}
                        aria-label={`${index + 1}. ${fileName(item.url)}`}
                        className={`relative w-40 shrink-0 overflow-hidden rounded-lg border bg-stone-900 ${
                          snapshot.isDragging
                            ? 'border-accent-400 shadow-2xl shadow-black'
                            : 'border-white/15'
                        }`}
                      >
                        {item.type === 'image' || thumbnails.has(item.url) ? (
                          <img
                            src={thumbnails.get(item.url) ?? item.url}
                            alt=""
                            draggable={false}
                            className="aspect-video w-full object-cover"
                          />
                        ) : (
                          <video
                            src={videoFrameSrc(item.url)}
                            muted
                            preload="metadata"
                            className="aspect-video w-full object-cover"
                          />
                        )}
                        <div className="flex items-center gap-2 px-2 py-1.5 text-xs text-stone-200">
                          <span className="font-bold text-accent-300">{index + 1}</span>
                          <span className="min-w-0 flex-1 truncate">{fileName(item.url)}</span>
                          <button
                            type="button"
                            aria-label={`Remove ${fileName(item.url)}`}
                            onClick={() => onRemove(item)}
                            className="rounded px-1 text-stone-400 hover:bg-white/10 hover:text-white"
                          >
                            ×
                          </button>
                        </div>
                      </li>
                    )}
                  </Draggable>
                ))}
                {drop.placeholder}
              </ol>
            )}
          </Droppable>
        </DragDropContext>
      )}
    </Card>
  );
}
