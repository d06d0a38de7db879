import { z } from 'zod';
import type { DataAnswer, DoneAnswer, ListOnly } from './envelopes';
import type { SlideType } from './slideshow';

/** Long enough for any real show, short enough that one request cannot bloat the store. */
export const MAX_PLAYLIST_ITEMS = 1000;

const urlSchema = z.string().trim().min(1).max(2000);

export const playlistItemSchema = z.object({
  type: z.enum(['image', 'video'], { error: 'Each item type must be image or video' }),
  url: urlSchema,
});

export type PlaylistItem = { type: SlideType; url: string };

const lists = {
  items: z.array(playlistItemSchema).max(MAX_PLAYLIST_ITEMS).default([]),
  images: z.array(urlSchema).max(MAX_PLAYLIST_ITEMS).default([]),
  videos: z.array(urlSchema).max(MAX_PLAYLIST_ITEMS).default([]),
};

export const playlistNameSchema = z
  .string({ error: 'Playlist name is required.' })
  .trim()
  .min(1, 'Playlist name is required.')
  .max(100, 'Playlist name must be at most 100 characters.');

/** POST /api/playlists */
export const createPlaylistBody = z.object({ name: playlistNameSchema, ...lists });

/** PUT /api/playlists/{id}: the new order; the name stays. */
export const updatePlaylistBody = z.object(lists);

export const playlistIdParam = z.object({ id: z.string().trim().min(1).max(64) });

export interface Playlist {
  _id: string;
  name: string;
  /** The order in which the slideshow plays them. */
  items: PlaylistItem[];
  images: string[];
  videos: string[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/playlists: the spec's "list of playlists", the array itself. */
export type PlaylistsResponse = ListOnly<Playlist>;

/** POST /api/playlists (201) and PUT /api/playlists/:id: the playlist as saved. */
export type PlaylistResponse = DataAnswer<Playlist>;

/** DELETE /api/playlists/:id */
export type DeletePlaylistResponse = DoneAnswer;

/** What the panel shows as a playlist's size: images plus videos, else items. */
export function playlistItemCount(playlist: Pick<Playlist, 'items' | 'images' | 'videos'>): number {
  const typed = (playlist.images?.length ?? 0) + (playlist.videos?.length ?? 0);
  return typed || playlist.items?.length || 0;
}
