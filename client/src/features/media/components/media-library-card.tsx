import { type MediaCategory, type MediaFile, mediaUrl } from '@common/media';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatSize } from '../../../lib/format-size';
import { thumbnailSrc } from '../../../lib/media-thumbnails';
import { CATEGORY_LABELS } from '../upload-rules';

export interface MediaLibraryCardProps {
  category: MediaCategory;
  files: MediaFile[] | undefined;
  /** The last scan's timestamp: part of each thumbnail's URL so that a new scan refetches them. */
  version: string | null | undefined;
  loading: boolean;
  error: string | null;
  selected: ReadonlySet<string>;
  onToggle: (path: string) => void;
  onToggleAll: (select: boolean) => void;
  onRefresh: () => void;
  onDelete: () => void;
  deleting: boolean;
}

/** The current library of one media type, with checkboxes to delete files. */
export function MediaLibraryCard(props: MediaLibraryCardProps) {
  const {
    category,
    files,
    version,
    loading,
    error,
    selected,
    onToggle,
    onToggleAll,
    onRefresh,
    onDelete,
    deleting,
  } = props;
  const allSelected = Boolean(files?.length) && files!.every((file) => selected.has(file.path));
  const src = (file: MediaFile) =>
    `${mediaUrl(file.path)}${version ? `?v=${encodeURIComponent(version)}` : ''}`;

  return (
    <Card id="media-library" className="!p-5 sm:!p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-white">
          Current Library: {CATEGORY_LABELS[category]}
          {files && <span className="ml-2 text-sm font-normal text-stone-400">({files.length})</span>}
        </h2>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onRefresh} disabled={loading}>
            Refresh
          </Button>
          <Button variant="danger" onClick={onDelete} disabled={deleting || selected.size === 0}>
            {deleting ? 'Deleting...' : `Delete Selected (${selected.size})`}
          </Button>
        </div>
      </div>

      {error ? (
        <p className="mt-4 text-sm text-red-300">{error}</p>
      ) : !files ? (
        <p className="mt-4 text-sm text-stone-400">Loading…</p>
      ) : files.length === 0 ? (
        <p className="mt-4 text-sm text-stone-400">
          No {CATEGORY_LABELS[category].toLowerCase()} in the library yet.
        </p>
      ) : (
        <>
          <label className="mt-4 flex items-center gap-2 text-sm text-stone-300">
            <input
              type="checkbox"
              checked={allSelected}
              onChange={(event) => onToggleAll(event.target.checked)}
              className="size-4 accent-amber-400"
            />
            Select all
          </label>
          <ul
            aria-label={`${CATEGORY_LABELS[category]} in the library`}
            className="mt-2 max-h-96 space-y-1.5 overflow-y-auto pr-1"
          >
            {files.map((file) => (
              <li
                key={file.path}
                className={`flex items-center gap-3 rounded-lg border pr-3 transition-colors ${
                  selected.has(file.path)
                    ? 'border-accent-400/50 bg-accent-400/10'
                    : 'border-white/10 bg-white/5 hover:bg-white/10'
                }`}
              >
                <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 p-2">
                  <input
                    type="checkbox"
                    checked={selected.has(file.path)}
                    onChange={() => onToggle(file.path)}
                    className="size-4 shrink-0 accent-amber-400"
                  />
                  {category === 'image' || file.thumbnail ? (
                    <img
                      src={thumbnailSrc(file, version)}
                      alt=""
                      loading="lazy"
                      className="h-10 w-14 shrink-0 rounded bg-black/40 object-cover"
                    />
                  ) : (
                    <span
                      aria-hidden="true"
                      className="flex h-10 w-14 shrink-0 items-center justify-center rounded bg-black/40 text-stone-400"
                    >
                      {category === 'audio' ? '♪' : '▶'}
                    </span>
                  )}
                  <span className="min-w-0 flex-1 break-all text-sm text-stone-100">{file.name}</span>
                  <span className="shrink-0 text-xs text-stone-400">{formatSize(file.size)}</span>
                </label>
                <a
                  href={src(file)}
                  target="_blank"
                  rel="noreferrer"
                  className="shrink-0 text-xs font-semibold text-accent-300 hover:underline"
                >
                  Open<span className="sr-only"> {file.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
