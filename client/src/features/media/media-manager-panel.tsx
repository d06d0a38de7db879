import type { MediaCategory } from '@common/media';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import { FormMessage } from '../../components/ui/form-message';
import { ApiError } from '../../lib/api-client';
import { thumbnailPolling } from '../../lib/media-thumbnails';
import { fetchFiles, fetchLastScan, fetchVideoPosters, mediaKeys, useDeleteFiles, useScanFiles } from './api';
import { MediaLibraryCard } from './components/media-library-card';
import { MediaTypeTabs } from './components/media-type-tabs';
import { PendingUploads } from './components/pending-uploads';
import { ScannerCard } from './components/scanner-card';
import { UploadCard } from './components/upload-card';
import { errorText, messageTone, NO_BASE_PATH } from './message-tone';
import { useUploadQueue } from './use-upload-queue';

/** The library scan refreshes 500 ms after an upload. */
const RESCAN_AFTER_UPLOAD_MS = 500;

/** The console's Media Manager: scan, upload to and delete from the media library. */
export function MediaManagerPanel() {
  const confirm = useConfirm();
  const notices = useNotices();
  /** Messages mentioning an error (or refusing) are errors, which stay until dismissed. */
  const flash = (text: string, seconds?: number) => {
    if (messageTone(text) === 'error') notices.error(text);
    else notices.success(text, { seconds });
  };
  const [category, setCategory] = useState<MediaCategory>('image');
  const scan = useScanFiles();
  const remove = useDeleteFiles();
  const scanning = scan.isPending;
  const deleting = remove.isPending;
  const [libraryOpen, setLibraryOpen] = useState(true);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const rescanTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const settings = useQuery({ queryKey: mediaKeys.lastScan, queryFn: fetchLastScan });
  const basePath = settings.data?.basePath;
  const files = useQuery({
    queryKey: mediaKeys.files(basePath ?? '', category),
    queryFn: () => fetchFiles(basePath!, category),
    enabled: Boolean(basePath) && libraryOpen,
    refetchInterval: thumbnailPolling,
  });
  const posters = useQuery({
    queryKey: mediaKeys.videoPosters,
    queryFn: fetchVideoPosters,
    enabled: category === 'video',
  });

  useEffect(() => () => clearTimeout(rescanTimer.current), []);
  const { entries, uploading, addFiles, dropEntries, uploadAll } = useUploadQueue({
    category,
    basePath,
    flash,
    // The library is scanned again shortly after files arrive, to show them.
    onUploaded: () => {
      clearTimeout(rescanTimer.current);
      rescanTimer.current = setTimeout(() => void runScan(true), RESCAN_AFTER_UPLOAD_MS);
    },
  });

  function chooseCategory(next: MediaCategory) {
    if (next === category) return;
    dropEntries(() => false);
    setSelected(new Set());
    setCategory(next);
  }

  async function runScan(silent: boolean) {
    if (!basePath) {
      if (!silent) flash(NO_BASE_PATH);
      return;
    }
    try {
      const { discoveries } = await scan.mutateAsync(basePath);
      if (!silent) flash(`Scan complete: ${discoveries.total} files found`);
    } catch (error) {
      if (!silent) flash(`Scan error: ${errorText(error, 'Scan failed')}`, 5);
    }
  }

  async function deleteSelected() {
    if (selected.size === 0) return flash('No files selected.');
    if (!basePath) return flash(NO_BASE_PATH);
    const paths = [...selected];
    const names = paths.map((p) => p.slice(p.indexOf('/') + 1));
    const sure = await confirm({
      title: `Delete ${paths.length} file${paths.length === 1 ? '' : 's'}?`,
      message: (
        <>
          <p className="break-words">
            {names.slice(0, 3).join(', ')}
            {names.length > 3 ? ` and ${names.length - 3} more` : ''}
          </p>
          <p>
            The files are removed from the disk and the slideshow stops showing them. This cannot be undone.
          </p>
        </>
      ),
      confirmLabel: `Delete ${paths.length} file${paths.length === 1 ? '' : 's'}`,
      destructive: true,
    });
    if (!sure) return;
    try {
      let result: Awaited<ReturnType<typeof remove.mutateAsync>>;
      try {
        result = await remove.mutateAsync({ basePath, paths });
      } catch (error) {
        // A picture a course still shows: the server names the course and lesson; delete only if told to.
        if (!(error instanceof ApiError && error.code === 'PICTURE_IN_COURSE')) throw error;
        const anyway = await confirm({
          title: 'Used by a course',
          message: <p className="break-words">{error.message}</p>,
          confirmLabel: 'Delete anyway',
          destructive: true,
        });
        if (!anyway) return;
        result = await remove.mutateAsync({ basePath, paths, confirmCourseUse: true });
      }
      setSelected(new Set());
      // A success answer (a delete that removed nothing is refused): shown as one, its words not sifted.
      notices.success(result.message || `Deleted ${result.summary.deleted} file(s).`);
      await runScan(true);
    } catch (error) {
      flash(`Delete error: ${errorText(error, 'Delete failed')}`, 5);
      await files.refetch();
    }
  }

  function toggle(path: string) {
    const next = new Set(selected);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setSelected(next);
  }

  return (
    <section className="mx-auto max-w-5xl space-y-5">
      <header>
        <h1 className="text-2xl font-semibold text-white">Media Manager</h1>
        <p className="mt-1 text-stone-400">
          Upload, scan and remove the images, videos and audio of the media library.
        </p>
      </header>
      {settings.error && (
        <FormMessage tone="error">{`Error: ${errorText(settings.error, 'Could not load the library')}`}</FormMessage>
      )}
      {settings.data?.folderProblem && <FormMessage tone="error">{settings.data.folderProblem}</FormMessage>}
      {category === 'video' && posters.data?.available === false && (
        <FormMessage tone="error">
          Videos get no poster picture: ffmpeg is not installed on the server. The slideshow plays them as
          before, but visitors who ask for reduced motion or to save data see no video slides. Install ffmpeg
          and scan again.
        </FormMessage>
      )}
      <ScannerCard
        basePath={basePath}
        lastScan={settings.data?.lastScan}
        scanning={scanning}
        onScan={() => void runScan(false)}
        libraryOpen={libraryOpen}
        onToggleLibrary={() => setLibraryOpen((open) => !open)}
      />
      <MediaTypeTabs value={category} onChange={chooseCategory} disabled={uploading} />
      <UploadCard category={category} disabled={uploading} onFiles={addFiles}>
        <PendingUploads
          category={category}
          entries={entries}
          uploading={uploading}
          onRemove={(id) => dropEntries((entry) => entry.id !== id)}
          onClear={() => dropEntries(() => false)}
          onUpload={() => void uploadAll()}
        />
      </UploadCard>
      {libraryOpen && (
        <MediaLibraryCard
          category={category}
          files={files.data}
          version={settings.data?.lastScan?.timestamp}
          loading={files.isFetching}
          error={files.error ? errorText(files.error, 'Could not load the library') : null}
          selected={selected}
          onToggle={toggle}
          onToggleAll={(all) => setSelected(all ? new Set(files.data?.map((file) => file.path)) : new Set())}
          onRefresh={() => void files.refetch()}
          onDelete={() => void deleteSelected()}
          deleting={deleting}
        />
      )}
    </section>
  );
}
