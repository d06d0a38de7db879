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
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { thumbnailPolling } from '../../../lib/media-thumbnails';

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

/** Saves the whole settings; the cached settings become what the server answers. */
export function useSaveSlideshowSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: SlideshowSettings) =>
      api<SlideshowSaveResponse>('/api/slider/config', {
        method: 'PUT',
        body: config,
        auth: true,
      }),
    onSuccess: (answer) => queryClient.setQueryData(slideshowKeys.config, answer.data),
  });
}

/** A change to the playlists, after which they are read again. */
function usePlaylistChange<V, T>(call: (variables: V) => Promise<T>, onSuccess?: (variables: V) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (_answer, variables) => {
      onSuccess?.(variables);
      return queryClient.invalidateQueries({ queryKey: slideshowKeys.playlists });
    },
  });
}

export function useCreatePlaylist() {
  return usePlaylistChange(
    async ({ name, items }: { name: string; items: PlaylistItem[] }) =>
      (
        await api<PlaylistResponse>('/api/playlists', {
          method: 'POST',
          body: { name, ...lists(items) },
          auth: true,
        })
      ).data,
  );
}

export function useUpdatePlaylist() {
  return usePlaylistChange(
    async ({ id, items }: { id: string; items: PlaylistItem[] }) =>
      (
        await api<PlaylistResponse>(`/api/playlists/${encodeURIComponent(id)}`, {
          method: 'PUT',
          body: lists(items),
          auth: true,
        })
      ).data,
  );
}

/** The server leaves no playlist active when the active one goes: the cached settings say so too. */
export function useDeletePlaylist() {
  const queryClient = useQueryClient();
  return usePlaylistChange(
    (id: string) =>
      api<DeletePlaylistResponse>(`/api/playlists/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        auth: true,
      }),
    (id) =>
      queryClient.setQueryData<SlideshowSettings>(slideshowKeys.config, (current) =>
        current && current.activePlaylist === id ? { ...current, activePlaylist: null } : current,
      ),
  );
}

/** Scans the library; every cached media list is read again. */
export function useScanLibrary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (basePath: string) =>
      api<ScanResponse>('/api/media/scan-files', { method: 'POST', body: { basePath }, auth: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['media'] }),
  });
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
