import { formatMoment } from '@common/dates';
import type { LastScan } from '@common/schemas/media';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface ScannerCardProps {
  basePath: string | undefined;
  lastScan: LastScan | null | undefined;
  scanning: boolean;
  onScan: () => void;
  libraryOpen: boolean;
  onToggleLibrary: () => void;
}

/** The file scanner: where the library is, what the last scan found, and the scan buttons. */
export function ScannerCard({
  basePath,
  lastScan,
  scanning,
  onScan,
  libraryOpen,
  onToggleLibrary,
}: ScannerCardProps) {
  return (
    <Card className="!p-5 sm:!p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-white">File Scanner</h2>
          <p className="mt-1 text-sm text-stone-400">
            Library folder:{' '}
            <code className="break-all rounded bg-black/30 px-1.5 py-0.5 text-stone-200">
              {basePath || 'not set'}
            </code>
          </p>
          <p className="mt-2 text-sm text-stone-300" data-testid="last-scan">
            {lastScan ? (
              <>
                Last scan {formatMoment(lastScan.timestamp)}: {plural(lastScan.discoveries.total, 'file')} (
                {plural(lastScan.discoveries.images, 'image')}, {plural(lastScan.discoveries.videos, 'video')}
                , {lastScan.discoveries.audio} audio).{' '}
              </>
            ) : (
              <>Not scanned yet. </>
            )}
            <button
              type="button"
              onClick={onScan}
              disabled={scanning}
              className="font-semibold text-accent-300 underline-offset-2 hover:underline disabled:opacity-50"
            >
              Rescan now
            </button>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={onScan} disabled={scanning}>
            {scanning ? 'Scanning...' : 'Scan Files'}
          </Button>
          <Button
            variant="secondary"
            onClick={onToggleLibrary}
            aria-expanded={libraryOpen}
            aria-controls="media-library"
          >
            {libraryOpen ? 'Hide Library' : 'Show Library'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
