import type { MediaCategory } from '@common/media';
import { useEffect, useRef, useState } from 'react';
import { useNotices } from '../../components/console/notices';
import { useUploadFile } from './api';
import type { UploadEntry } from './components/pending-uploads';
import { errorText, NO_BASE_PATH } from './message-tone';
import { checkSelection } from './upload-rules';

let nextEntryId = 0;

/**
 * The Media Manager's files waiting to be uploaded: chosen (checked, each with its preview),
 * uploaded one request each with its own progress, what was uploaded and what was refused told
 * apart. `flash` tells a refusal of the choice; `onUploaded` follows an upload that stored files.
 */
export function useUploadQueue({
  category,
  basePath,
  flash,
  onUploaded,
}: {
  category: MediaCategory;
  basePath: string | undefined;
  flash: (text: string, seconds?: number) => void;
  onUploaded: () => void;
}) {
  const notices = useNotices();
  const upload = useUploadFile();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  // Object URLs of previews hold the files in memory until revoked.
  useEffect(
    () => () => {
      for (const entry of entriesRef.current) if (entry.preview) URL.revokeObjectURL(entry.preview);
    },
    [],
  );

  function dropEntries(keep: (entry: UploadEntry) => boolean) {
    for (const entry of entriesRef.current)
      if (!keep(entry) && entry.preview) URL.revokeObjectURL(entry.preview);
    setEntries((current) => current.filter(keep));
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
        failures.push(`${entry.name}: ${reason}`);
        patchEntry(entry.id, { status: 'error', error: reason });
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
    if (uploaded) onUploaded();
  }

  return { entries, uploading: upload.isPending, addFiles, dropEntries, uploadAll };
}

/** "a.png, b.png, c.png and 4 more" */
function firstNames(names: string[], shown = 3): string {
  const head = names.slice(0, shown).join(', ');
  return names.length > shown ? `${head} and ${names.length - shown} more` : head;
}
