import type { Playlist } from '@common/schemas/playlist';
import type { SlideshowSettings } from '@common/schemas/slideshow';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useUnsavedChanges } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { thumbnailsByUrl } from '../../../lib/media-thumbnails';
import { previewSlideshow, reloadSlideshow } from '../slideshow-events';
import {
  useCreatePlaylist,
  useDeletePlaylist,
  useLastScan,
  useLibrary,
  usePlaylists,
  useSaveSlideshowSettings,
  useScanLibrary,
  useSlideshowSettings,
  useUpdatePlaylist,
} from './api';
import { LibraryCard } from './components/library-card';
import { PlaylistOrderStrip } from './components/playlist-order-strip';
import { PlaylistsCard } from './components/playlists-card';
import { SlideshowSettingsCard } from './components/slideshow-settings-card';
import { itemsOf, usePlaylistEditor } from './use-playlist-editor';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The Background Manager console panel: slideshow settings, the library and its playlists. */
export function SlideshowPanel() {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const notices = useNotices();
  const success = (text: string) => notices.success(text);
  const error = (text: string) => notices.error(text);
  const configQuery = useSlideshowSettings();
  const playlistsQuery = usePlaylists();
  const saved = configQuery.data;
  const [draft, setDraft] = useState<SlideshowSettings | null>(null);
  const saveSettings = useSaveSlideshowSettings();
  const scanLibrary = useScanLibrary();
  // Its own, so that the quiet first scan does not show as the Scan button's.
  const quietScan = useScanLibrary();
  const createPlaylist = useCreatePlaylist();
  const updatePlaylist = useUpdatePlaylist();
  const deletePlaylist = useDeletePlaylist();
  const editor = usePlaylistEditor();

  // The form starts from the saved settings once; later refetches must not wipe unsaved edits.
  useEffect(() => {
    if (saved) setDraft((current) => current ?? saved);
  }, [saved]);

  const basePath = saved?.backgroundsBasePath;
  const lastScan = useLastScan(basePath);
  const version = lastScan.data?.timestamp ?? 'never';
  const images = useLibrary('images', basePath, version);
  const videos = useLibrary('videos', basePath, version);
  const thumbnails = useMemo(
    () => thumbnailsByUrl([...(images.data ?? []), ...(videos.data ?? [])]),
    [images.data, videos.data],
  );

  // A library that was never scanned is scanned once, quietly, when the panel first sees it.
  const silentScan = useRef<string | null>(null);
  const scanQuietly = quietScan.mutate;
  useEffect(() => {
    if (!basePath || lastScan.data !== null || silentScan.current === basePath) return;
    silentScan.current = basePath;
    scanQuietly(basePath);
  }, [basePath, lastScan.data, scanQuietly]);

  const previewing =
    draft !== null &&
    saved !== undefined &&
    (draft.overlayColor !== saved.overlayColor || draft.overlayOpacity !== saved.overlayOpacity);
  useEffect(() => {
    previewSlideshow(
      previewing && draft ? { overlayColor: draft.overlayColor, overlayOpacity: draft.overlayOpacity } : null,
    );
  }, [previewing, draft?.overlayColor, draft?.overlayOpacity, draft]);
  useEffect(() => () => previewSlideshow(null), []);

  async function saveConfig() {
    if (!draft) return;
    try {
      const answer = await saveSettings.mutateAsync(draft);
      setDraft(answer.data);
      success(answer.message || 'Configuration saved successfully!');
      reloadSlideshow();
    } catch (failure) {
      error(`Error: ${messageOf(failure) || 'Failed to save'}`);
    }
  }

  async function scan() {
    if (!basePath || !draft?.backgroundsBasePath.trim()) return error('Please set a base path first.');
    try {
      const answer = await scanLibrary.mutateAsync(basePath);
      success(`Scan complete: ${answer.discoveries.total} files found`);
    } catch (failure) {
      error(`Scan error: ${messageOf(failure)}`);
    }
  }

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: ['media'] });
    success('Library refreshed');
  }

  async function create(name: string): Promise<boolean> {
    try {
      // Items picked before any playlist was selected go into the new one.
      const created = await createPlaylist.mutateAsync({
        name,
        items: editor.selectedId ? [] : editor.items,
      });
      editor.select(created);
      return true;
    } catch (failure) {
      error(`Failed to create playlist: ${messageOf(failure)}`);
      return false;
    }
  }

  async function remove(playlist: Playlist) {
    const sure = await confirm({
      title: 'Delete this playlist?',
      message: `“${playlist.name}” and its order are deleted. The media files stay in the library.`,
      confirmLabel: 'Delete playlist',
      destructive: true,
    });
    if (!sure) return;
    try {
      await deletePlaylist.mutateAsync(playlist._id);
      if (editor.selectedId === playlist._id) editor.select(null);
      // The server leaves no playlist active when the active one goes.
      setDraft((current) =>
        current && current.activePlaylist === playlist._id ? { ...current, activePlaylist: null } : current,
      );
      reloadSlideshow();
    } catch (failure) {
      error(`Failed to delete playlist: ${messageOf(failure)}`);
    }
  }

  async function saveSelected() {
    if (!editor.selectedId) return;
    try {
      const updated = await updatePlaylist.mutateAsync({ id: editor.selectedId, items: editor.items });
      editor.select(updated);
      success('Playlist saved successfully!');
      reloadSlideshow();
    } catch (failure) {
      error(`Failed to update playlist: ${messageOf(failure)}`);
    }
  }

  const playlists = playlistsQuery.data;
  const selected = playlists?.find((p) => p._id === editor.selectedId) ?? null;

  // Leaving the panel with either of these unsaved asks first.
  const settingsUnsaved =
    draft !== null && saved !== undefined && JSON.stringify(draft) !== JSON.stringify(saved);
  const playlistUnsaved =
    selected !== null && JSON.stringify(editor.items) !== JSON.stringify(itemsOf(selected));
  useUnsavedChanges(
    [settingsUnsaved && 'the slider settings', playlistUnsaved && `the playlist “${selected?.name}”`]
      .filter(Boolean)
      .join(' and ') || null,
  );

  return (
    <section className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-white">Background Manager</h1>
        <p className="mt-1 text-stone-400">
          Choose the images and videos that play behind every page, and how.
        </p>
      </header>

      {configQuery.isError ? (
        <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/15 p-4 text-red-200">
          Could not load the slider settings: {messageOf(configQuery.error)}
        </p>
      ) : draft ? (
        <SlideshowSettingsCard
          draft={draft}
          playlists={playlists ?? []}
          saving={saveSettings.isPending}
          previewing={previewing}
          onChange={(change) => setDraft((current) => (current ? { ...current, ...change } : current))}
          onSave={saveConfig}
        />
      ) : (
        <p className="text-stone-400">Loading settings…</p>
      )}

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(18rem,1fr)]">
        <LibraryCard
          lastScan={lastScan.isError ? null : lastScan.data}
          images={images.data}
          videos={videos.data}
          version={version}
          selected={editor.items}
          busy={scanLibrary.isPending}
          onToggle={editor.toggle}
          onScan={scan}
          onRefresh={refresh}
        />
        <PlaylistsCard
          playlists={playlists}
          loadFailed={playlistsQuery.isError}
          selectedId={editor.selectedId}
          activeId={saved?.activePlaylist ?? null}
          onSelect={editor.select}
          onDelete={remove}
          onCreate={create}
        />
      </div>

      <PlaylistOrderStrip
        name={selected?.name ?? null}
        items={editor.items}
        thumbnails={thumbnails}
        saving={updatePlaylist.isPending}
        onReorder={editor.reorder}
        onRemove={editor.toggle}
        onSave={saveSelected}
      />

      {previewing && draft && (
        // The live preview over the whole page; the settings card sits above it to stay readable.
        <div
          aria-hidden="true"
          data-testid="overlay-preview"
          className="pointer-events-none fixed inset-0 z-40"
          style={{ backgroundColor: `rgba(${draft.overlayColor}, ${draft.overlayOpacity})` }}
        />
      )}
    </section>
  );
}
