import type { MediaCategory } from '@common/media';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormMessage } from '../../components/ui/form-message';
import { thumbnailPolling } from '../../lib/media-thumbnails';
import { useConfirm } from '../admin/components/confirm-dialog';
import { useNotices } from '../admin/notices/notices';
import {
  fetchFiles,
  fetchLastScan,
  fetchVideoPosters,
  mediaKeys,
  useDeleteFiles,
  useScanFiles,
  useUploadFile,
} from './api';
import { MediaLibraryCard } from './components/media-library-card';
import { MediaTypeTabs } from './components/media-type-tabs';
import { PendingUploads, type UploadEntry } from './components/pending-uploads';
import { ScannerCard } from './components/scanner-card';
import { UploadCard } from './components/upload-card';
import { messageTone } from './message-tone';
import { checkSelection } from './upload-rules';

const NO_BASE_PATH = 'Please set a base path in Background Manager first.';
/** The library scan refreshes 500 ms after an upload. */
const RESCAN_AFTER_UPLOAD_MS = 500;

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

let nextEntryId = 0;

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
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const upload = useUploadFile();
  const scan = useScanFiles();
  const remove = useDeleteFiles();
  const uploading = upload.isPending;
  const scanning = scan.isPending;
  const deleting = remove.isPending;
  const [libraryOpen, setLibraryOpen] = useState(true);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const rescanTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

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

  // Object URLs of previews hold the files in memory until revoked.
  useEffect(
    () => () => {
      clearTimeout(rescanTimer.current);
      for (const entry of entriesRef.current) if (entry.preview) URL.revokeObjectURL(entry.preview);
    },
    [],
  );

  function dropEntries(keep: (entry: UploadEntry) => boolean) {
    for (const entry of entriesRef.current)
      if (!keep(entry) && entry.preview) URL.revokeObjectURL(entry.preview);
    setEntries((current) => current.filter(keep));
  }

  function chooseCategory(next: MediaCategory) {
    if (next === category) return;
    dropEntries(() => false);
    setSelected(new Set());
    setCategory(next);
  }

  function addFiles(chosen: File[]) {
    const { accepted, message: refusal } = checkSelection(chosen, category);
    if (refusal) flash(refusal, 6);
    const key = (file: File) => `${file.name}|${file.size}|${file.lastModified}`;
    const known = new Set(entries.map((entry) => key(entry.file)));
    const fresh = accepted
      .filter((file) => !known.has(key(file)))
      .map(
        (file): UploadEntry => ({
          id: `upload-${++nextEntryId}`,
          file,
          name: file.name,
          size: file.size,
          type: file.type,
          preview: category === 'audio' ? null : URL.createObjectURL(file),
          status: 'pending',
          progress: 0,
        }),
      );
    setEntries([...entries, ...fresh]);
  }

  const patchEntry = (id: string, patch: Partial<UploadEntry>) =>
    setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)));

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

  async function uploadAll() {
    const queue = entries.filter((entry) => entry.status !== 'done');
    if (queue.length === 0) return flash('No files to upload.');
    if (!basePath) return flash(NO_BASE_PATH);
    let uploaded = 0;
    const uploadedNames: string[] = [];
    const failures: string[] = [];
    const done = new Set<string>();
    // One request per file: each gets its own progress bar, and one refusal spoils nothing else.
    for (const entry of queue) {
      patchEntry(entry.id, { status: 'uploading', progress: 0, error: undefined });
      try {
        const result = await upload.mutateAsync({
          file: entry.file,
          mediaType: category,
          basePath,
          onProgress: (progress) => patchEntry(entry.id, { progress }),
        });
        uploaded += result.uploadedCount;
        uploadedNames.push(entry.name);
        done.add(entry.id);
        patchEntry(entry.id, { status: 'done', progress: 1 });
      } catch (error) {
        const reason = errorText(error, 'Upload failed');
        // The server names the refused file itself; the list entry already shows the name.
        const named = reason.startsWith(`${entry.name}: `);
        failures.push(named ? reason : `${entry.name}: ${reason}`);
        patchEntry(entry.id, {
          status: 'error',
          error: named ? reason.slice(entry.name.length + 2) : reason,
        });
      }
    }
    dropEntries((entry) => !done.has(entry.id));
    // What was uploaded and what was refused (and why) are told apart: the refusal stays until read.
    if (uploaded)
      notices.success(`Successfully uploaded ${uploaded} file(s) to ${category}.`, {
        detail: firstNames(uploadedNames),
        seconds: failures.length ? 7 : 3,
      });
    if (failures.length) notices.error(`Upload error: ${failures.join('; ')}`);
    if (uploaded) {
      clearTimeout(rescanTimer.current);
      rescanTimer.current = setTimeout(() => void runScan(true), RESCAN_AFTER_UPLOAD_MS);
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
      const result = await remove.mutateAsync({ basePath, paths });
      setSelected(new Set());
      flash(result.message || `Deleted ${result.summary.deleted} file(s).`);
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

/** "a.png, b.png, c.png and 4 more" */
function firstNames(names: string[], shown = 3): string {
  const head = names.slice(0, shown).join(', ');
  return names.length > shown ? `${head} and ${names.length - shown} more` : head;
}
