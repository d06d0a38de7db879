import type { Playlist } from '@common/schemas/playlist';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { itemsOf, usePlaylistEditor } from './use-playlist-editor';

const playlist = (fields: Partial<Playlist>): Playlist => ({
  _id: 'p1',
  name: 'Evening',
  items: [],
  images: [],
  videos: [],
  createdAt: '',
  updatedAt: '',
  ...fields,
});
const a = { type: 'image' as const, url: '/media/image/a.png' };
const b = { type: 'image' as const, url: '/media/image/b.png' };
const v = { type: 'video' as const, url: '/media/video/v.mp4' };

describe('usePlaylistEditor', () => {
  it('loads the selected playlist, toggles library items and moves them on a drop', () => {
    const { result } = renderHook(() => usePlaylistEditor());
    act(() => result.current.select(playlist({ items: [a, v] })));
    expect(result.current.selectedId).toBe('p1');
    act(() => result.current.toggle(b));
    expect(result.current.items).toEqual([a, v, b]);
    act(() => result.current.toggle(a));
    expect(result.current.items).toEqual([v, b]);
    act(() => result.current.reorder(1, 0));
    expect(result.current.items).toEqual([b, v]);
    // Dropped outside the strip: nothing moves.
    act(() => result.current.reorder(0, undefined));
    expect(result.current.items).toEqual([b, v]);
    act(() => result.current.select(null));
    expect(result.current.items).toEqual([]);
  });

  it('reads old playlists that only have image and video lists', () => {
    expect(itemsOf(playlist({ images: [a.url], videos: [v.url] }))).toEqual([a, v]);
  });
});
