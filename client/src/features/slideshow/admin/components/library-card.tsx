import { formatMoment } from '@common/dates';
import { type MediaFile, mediaUrl } from '@common/media';
import type { LastScan } from '@common/schemas/media';
import type { PlaylistItem } from '@common/schemas/playlist';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { thumbnailSrc } from '../../../../lib/media-thumbnails';
import { videoFrameSrc } from '../../../../lib/video-frame';

export interface LibraryCardProps {
  lastScan: LastScan | null | undefined;
  images: MediaFile[] | undefined;
  videos: MediaFile[] | undefined;
  /** The last scan's time, appended to thumbnails so a replaced file shows fresh. */
  version: string;
  selected: PlaylistItem[];
  busy: boolean;
  onToggle: (item: PlaylistItem) => void;
  onScan: () => void;
  onRefresh: () => void;
}

export function scanSummary(lastScan: LastScan | null | undefined): string {
  if (lastScan === undefined) return 'Checking the last scan…';
  if (lastScan === null) return 'Last scan: never';
  const d = lastScan.discoveries;
  return `Last scan: ${formatMoment(lastScan.timestamp)} — ${d.total} files (${d.images} images, ${d.videos} videos, ${d.audio} audio)`;
}

/** The image and video libraries; a click adds the item to the selected playlist or takes it out. */
export function LibraryCard(props: LibraryCardProps) {
  const { lastScan, images, videos, busy, onScan, onRefresh } = props;
  const empty = images?.length === 0 && videos?.length === 0;
  return (
    <Card className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Media Library</h2>
          <p className="mt-1 text-sm text-stone-400" data-testid="last-scan">
            {scanSummary(lastScan)}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onRefresh}>
            Refresh Library
          </Button>
          <Button variant="secondary" onClick={onScan} disabled={busy}>
            {busy ? 'Scanning...' : 'Scan Files'}
          </Button>
        </div>
      </div>
      {empty && (
        <p className="rounded-lg border border-white/10 bg-white/5 p-3 text-sm text-stone-300">
          The library is empty, so the built-in backgrounds play. Add images and videos in the Media Manager.
        </p>
      )}
      <Grid title="Image Library" kind="image" files={images} {...props} />
      <Grid title="Video Library" kind="video" files={videos} {...props} />
    </Card>
  );
}

interface GridProps extends LibraryCardProps {
  title: string;
  kind: 'image' | 'video';
  files: MediaFile[] | undefined;
}

function Grid({ title, kind, files, selected, version, onToggle }: GridProps) {
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold uppercase tracking-wider text-stone-400">
        {title} {files ? `(${files.length})` : ''}
      </h3>
      {files === undefined ? (
        <p className="text-sm text-stone-400">Loading…</p>
      ) : files.length === 0 ? (
        <p className="text-sm text-stone-400">No {kind === 'image' ? 'images' : 'videos'} yet.</p>
      ) : (
        // The library grids scroll past 400px.
        <ul className="grid max-h-[400px] grid-cols-2 gap-3 overflow-y-auto pr-1 sm:grid-cols-3 lg:grid-cols-4">
          {files.map((file) => {
            const url = mediaUrl(file.path);
            const position = selected.findIndex((item) => item.url === url);
            const src = `${url}?v=${encodeURIComponent(version)}`;
            return (
              <li key={file.path}>
                <button
                  type="button"
                  title={file.name}
                  aria-pressed={position >= 0}
                  onClick={() => onToggle({ type: kind, url })}
                  className={`group relative block aspect-video w-full overflow-hidden rounded-lg border-2 bg-black/40 transition ${
                    position >= 0
                      ? 'border-accent-400 ring-2 ring-accent-400/40'
                      : 'border-transparent opacity-80 hover:border-white/30 hover:opacity-100'
                  }`}
                >
                  {kind === 'image' || file.thumbnail ? (
                    <img
                      src={thumbnailSrc(file, version)}
                      alt=""
                      loading="lazy"
                      className="h-full w-full object-cover"
                    />
                  ) : (
                    <video
                      src={videoFrameSrc(src)}
                      muted
                      playsInline
                      preload="metadata"
                      className="h-full w-full object-cover"
                    />
                  )}
                  <span className="absolute inset-x-0 bottom-0 truncate bg-black/60 px-2 py-1 text-left text-xs text-stone-100">
                    {file.name}
                  </span>
                  {position >= 0 && (
                    <span className="absolute top-1.5 right-1.5 flex h-6 min-w-6 items-center justify-center rounded-full bg-accent-400 px-1.5 text-xs font-bold text-stone-950">
                      {position + 1}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
