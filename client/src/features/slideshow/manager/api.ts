import type { MediaFile } from '@common/media';
import type { LastScanResponse, MediaFilesResponse, ScanResponse } from '@common/schemas/media';
import type {
  DeletePlaylistResponse,
  Playlist,
  PlaylistItem,
  PlaylistResponse,
  PlaylistsResponse,
} from '@common/schemas/playlist';
import type {
  SlideshowConfigResponse,
  SlideshowSaveResponse,
  SlideshowSettings,
} from '@common/schemas/slideshow';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const slideshowKeys = {
  config: ['slider', 'config'] as const,
  playlists: ['playlists'] as const,
  lastScan: (basePath: string) => ['media', 'last-scan', basePath] as const,
  library: (kind: LibraryKind, basePath: string, version: string) =>
    ['media', 'files', kind, basePath, version] as const,
};

export type LibraryKind = 'images' | 'videos';

export async function fetchSlideshowSettings(): Promise<SlideshowSettings> {
  return (await api<SlideshowConfigResponse>('/api/slider/config', { auth: true })).data;
}

export function saveSlideshowSettings(config: SlideshowSettings) {
  return api<SlideshowSaveResponse>('/api/slider/config', {
    method: 'PUT',
    body: config,
    auth: true,
  });
}

/** The list of playlists is the answer itself (see common/schemas/envelopes.ts). */
export function fetchPlaylists(): Promise<Playlist[]> {
  return api<PlaylistsResponse>('/api/playlists', { auth: true });
}

/** The body of a playlist save: the order, plus the legacy per-type lists derived from it. */
function lists(items: PlaylistItem[]) {
  return {
    items,
    images: items.filter((item) => item.type === 'image').map((item) => item.url),
    videos: items.filter((item) => item.type === 'video').map((item) => item.url),
  };
}

export async function createPlaylist(name: string, items: PlaylistItem[]): Promise<Playlist> {
  const body = { name, ...lists(items) };
  return (await api<PlaylistResponse>('/api/playlists', { method: 'POST', body, auth: true })).data;
}

export async function updatePlaylist(id: string, items: PlaylistItem[]): Promise<Playlist> {
  const path = `/api/playlists/${encodeURIComponent(id)}`;
  return (await api<PlaylistResponse>(path, { method: 'PUT', body: lists(items), auth: true })).data;
}

export function deletePlaylist(id: string) {
  return api<DeletePlaylistResponse>(`/api/playlists/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    auth: true,
  });
}

export function scanLibrary(basePath: string) {
  return api<ScanResponse>('/api/media/scan-files', { method: 'POST', body: { basePath }, auth: true });
}

export function useSlideshowSettings() {
  return useQuery({ queryKey: slideshowKeys.config, queryFn: fetchSlideshowSettings });
}

export function usePlaylists() {
  return useQuery({ queryKey: slideshowKeys.playlists, queryFn: fetchPlaylists });
}

export function useLastScan(basePath: string | undefined) {
  return useQuery({
    queryKey: slideshowKeys.lastScan(basePath ?? ''),
    enabled: Boolean(basePath),
    queryFn: async () =>
      (
        await api<LastScanResponse>(`/api/media/last-scan?basePath=${encodeURIComponent(basePath!)}`, {
          auth: true,
        })
      ).lastScan,
  });
}

/** The library's images or videos; `version` (the last scan's time) busts any cached list. */
export function useLibrary(kind: LibraryKind, basePath: string | undefined, version: string) {
  return useQuery({
    queryKey: slideshowKeys.library(kind, basePath ?? '', version),
    enabled: Boolean(basePath),
    queryFn: async (): Promise<MediaFile[]> =>
      (
        await api<MediaFilesResponse>(
          `/api/media/files/${kind}?basePath=${encodeURIComponent(basePath!)}&v=${encodeURIComponent(version)}`,
          { auth: true },
        )
      ).files,
  });
}
