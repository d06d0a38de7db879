import type { Playlist, PlaylistItem } from '@common/schemas/playlist';
import { useCallback, useState } from 'react';

/** A playlist's items in play order; old playlists without `items` are read from their type lists. */
export function itemsOf(playlist: Playlist): PlaylistItem[] {
  if (playlist.items?.length) return playlist.items;
  return [
    ...(playlist.images ?? []).map((url) => ({ type: 'image' as const, url })),
    ...(playlist.videos ?? []).map((url) => ({ type: 'video' as const, url })),
  ];
}

/** Moves one entry from `from` to `to`, as a drop in the order strip does. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * The Background Manager's working selection: selecting a playlist loads its
 * items into an editable order; library clicks add or remove items; drags reorder them.
 */
export function usePlaylistEditor() {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [items, setItems] = useState<PlaylistItem[]>([]);

  const select = useCallback((playlist: Playlist | null) => {
    setSelectedId(playlist?._id ?? null);
    setItems(playlist ? itemsOf(playlist) : []);
  }, []);

  const toggle = useCallback((item: PlaylistItem) => {
    setItems((current) =>
      current.some((i) => i.url === item.url)
        ? current.filter((i) => i.url !== item.url)
        : [...current, item],
    );
  }, []);

  const reorder = useCallback((from: number, to: number | undefined) => {
    // Dropped outside the strip: nothing moves.
    if (to === undefined) return;
    setItems((current) => moveItem(current, from, to));
  }, []);

  return { selectedId, items, select, toggle, reorder };
}
