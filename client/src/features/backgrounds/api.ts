import type { MediaFile } from '@common/media';
import type { LastScanResponse, MediaFilesResponse, ScanResponse } from '@common/schemas/media';
import type { Playlist, PlaylistItem } from '@common/schemas/playlist';
import type { SliderConfig } from '@common/schemas/slider';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { thumbnailPolling } from '../../lib/media-tiles';

export const backgroundKeys = {
  config: ['slider', 'config'] as const,
  playlists: ['playlists'] as const,
  lastScan: (basePath: string) => ['media', 'last-scan', basePath] as const,
  library: (kind: LibraryKind, basePath: string, version: string) =>
    ['media', 'files', kind, basePath, version] as const,
};

export type LibraryKind = 'images' | 'videos';

export async function fetchSliderConfig(): Promise<SliderConfig> {
  return (await api<{ data: SliderConfig }>('/api/slider/config', { auth: true })).data;
}

export function saveSliderConfig(config: SliderConfig) {
  return api<{ success: boolean; message: string; data: SliderConfig }>('/api/slider/config', {
    method: 'PUT',
    body: config,
    auth: true,
  });
}

export async function fetchPlaylists(): Promise<Playlist[]> {
  const answer = await api<Playlist[] | { data: Playlist[] }>('/api/playlists', { auth: true });
  return Array.isArray(answer) ? answer : answer.data;
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
  return (await api<{ data: Playlist }>('/api/playlists', { method: 'POST', body, auth: true })).data;
}

export async function updatePlaylist(id: string, items: PlaylistItem[]): Promise<Playlist> {
  const path = `/api/playlists/${encodeURIComponent(id)}`;
  return (await api<{ data: Playlist }>(path, { method: 'PUT', body: lists(items), auth: true })).data;
}

export function deletePlaylist(id: string) {
  return api<{ success: boolean }>(`/api/playlists/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    auth: true,
  });
}

export function scanLibrary(basePath: string) {
  return api<ScanResponse>('/api/media/scan-files', { method: 'POST', body: { basePath }, auth: true });
}

export function useSliderConfig() {
  return useQuery({ queryKey: backgroundKeys.config, queryFn: fetchSliderConfig });
}

export function usePlaylists() {
  return useQuery({ queryKey: backgroundKeys.playlists, queryFn: fetchPlaylists });
}

export function useLastScan(basePath: string | undefined) {
  return useQuery({
    queryKey: backgroundKeys.lastScan(basePath ?? ''),
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
    queryKey: backgroundKeys.library(kind, basePath ?? '', version),
    enabled: Boolean(basePath),
    refetchInterval: thumbnailPolling,
    queryFn: async (): Promise<MediaFile[]> =>
      (
        await api<MediaFilesResponse>(
          `/api/media/files/${kind}?basePath=${encodeURIComponent(basePath!)}&v=${encodeURIComponent(version)}`,
          { auth: true },
        )
      ).files,
  });
}
