import type { MediaCategory } from '@common/media';
import { Button } from '../../../components/ui/button';
import { UploadProgress } from '../../../components/ui/upload-progress';
import { formatSize } from '../../../lib/format-size';
import { videoFrameSrc } from '../../../lib/video-frame';

/** An upload entry: a chosen file waiting to be sent (name, size, type, preview), with its progress. */
export interface UploadEntry {
  id: string;
  file: File;
  name: string;
  size: number;
  type: string;
  /** An object URL of the file for images and videos, revoked when the entry goes. */
  preview: string | null;
  status: 'pending' | 'uploading' | 'done' | 'error';
  progress: number;
  error?: string;
}

export interface PendingUploadsProps {
  category: MediaCategory;
  entries: UploadEntry[];
  uploading: boolean;
  onRemove: (id: string) => void;
  onClear: () => void;
  onUpload: () => void;
}

export function PendingUploads({
  category,
  entries,
  uploading,
  onRemove,
  onClear,
  onUpload,
}: PendingUploadsProps) {
  return (
    <div className="mt-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-sm font-semibold uppercase tracking-wider text-stone-400">
          Ready to upload ({entries.length})
        </h3>
        <div className="flex gap-2">
          <Button variant="ghost" onClick={onClear} disabled={uploading || entries.length === 0}>
            Clear All
          </Button>
          <Button onClick={onUpload} disabled={uploading}>
            {uploading ? 'Uploading...' : 'Upload Files'}
          </Button>
        </div>
      </div>
      {entries.length === 0 ? (
        <p className="mt-3 text-sm text-stone-400">No files chosen yet.</p>
      ) : (
        <ul aria-label="Files ready for upload" className="mt-3 space-y-2">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex items-center gap-3 rounded-lg border border-white/10 bg-white/5 p-2.5"
            >
              <Preview category={category} entry={entry} />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-stone-100" title={entry.name}>
                  {entry.name}
                </p>
                <p className="text-xs text-stone-400">
                  {formatSize(entry.size)} · {entry.type || 'unknown type'}
                </p>
                {entry.status === 'uploading' || entry.status === 'done' ? (
                  <UploadProgress name={entry.name} progress={entry.progress} />
                ) : null}
                {entry.status === 'error' && <p className="mt-1 text-xs text-red-300">{entry.error}</p>}
              </div>
              <button
                type="button"
                onClick={() => onRemove(entry.id)}
                disabled={uploading}
                aria-label={`Remove ${entry.name}`}
                className="rounded-lg px-2.5 py-1.5 text-sm text-stone-400 hover:bg-red-500/15 hover:text-red-300 disabled:opacity-40"
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Preview({ category, entry }: { category: MediaCategory; entry: UploadEntry }) {
  const box = 'h-12 w-16 shrink-0 overflow-hidden rounded-md bg-black/40';
  if (entry.preview && category === 'image') {
    return <img src={entry.preview} alt="" className={`${box} object-cover`} />;
  }
  if (entry.preview && category === 'video') {
    return (
      <video src={videoFrameSrc(entry.preview)} muted preload="metadata" className={`${box} object-cover`} />
    );
  }
  return (
    <span aria-hidden="true" className={`${box} flex items-center justify-center text-xl text-stone-400`}>
      {category === 'audio' ? '♪' : '▶'}
    </span>
  );
}
