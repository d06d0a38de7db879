import { type MediaFile, mediaUrl } from '@common/media';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { thumbnailPolling, thumbnailSrc } from '../../../lib/media-thumbnails';
import { fetchFiles, fetchLastScan, mediaKeys, useUploadFile } from '../../media/api';

/** How the picker names its picture; a course's cover unless told otherwise (the site's logo and icon). */
export interface PictureWords {
  /** The field's label: 'Cover picture'. */
  label: string;
  /** What the picture is, in a sentence: 'the cover'. */
  noun: string;
  /** The thumbnail's shape. */
  shape: 'wide' | 'square';
  /** Files larger than this are refused before they are sent. */
  maxBytes?: number;
}

const COVER_WORDS: PictureWords = { label: 'Cover picture', noun: 'the cover', shape: 'wide' };

/**
 * The course's cover: a picture of the media library (public, like every page's pictures),
 * chosen from it or uploaded to it here. The site's logo and icon are chosen the same way.
 */
export function CoverPicker({
  value,
  onChange,
  words = COVER_WORDS,
}: {
  value: string | null;
  onChange: (url: string | null) => void;
  words?: PictureWords;
}) {
  const ids = useId();
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const settings = useQuery({ queryKey: mediaKeys.lastScan, queryFn: fetchLastScan });
  const basePath = settings.data?.basePath;
  // The library's pictures with their thumbnails: the grid and the current cover show those,
  // never a camera original.
  const images = useQuery({
    queryKey: mediaKeys.files(basePath ?? '', 'image'),
    queryFn: () => fetchFiles(basePath!, 'image'),
    enabled: Boolean(basePath),
    refetchInterval: thumbnailPolling,
  });
  const version = settings.data?.lastScan?.timestamp ?? null;
  const current = value && images.data?.find((file) => mediaUrl(file.path) === value);
  const shownCover = current ? thumbnailSrc(current, version) : value;

  const uploadFile = useUploadFile();
  const upload = async (file: File) => {
    if (words.maxBytes && file.size > words.maxBytes) {
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      notices.error(
        `${file.name} is ${mb(file.size)}; ${words.noun} may be at most ${mb(words.maxBytes)}. Nothing was changed.`,
      );
      return;
    }
    if (!basePath) {
      notices.error('Set the media library’s base path in Background Manager first.');
      return;
    }
    setProgress(0);
    try {
      const answer = await uploadFile.mutateAsync({
        file,
        mediaType: 'image',
        basePath,
        onProgress: setProgress,
      });
      const stored = answer.files[0];
      if (!stored) throw new Error(answer.message);
      onChange(mediaUrl(stored.path));
      void queryClient.invalidateQueries({ queryKey: ['media'] });
      notices.success(`Uploaded ${stored.name} to the media library.`);
    } catch (error) {
      notices.error('The picture was not uploaded.', { detail: (error as Error).message });
    } finally {
      setProgress(null);
    }
  };

  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-stone-300">{words.label}</p>
      <div className="flex items-start gap-4">
        <div
          className={`${words.shape === 'square' ? 'aspect-square w-24' : 'aspect-[16/9] w-40'} shrink-0 overflow-hidden rounded-lg border border-white/10 bg-gradient-to-br from-amber-900/60 via-stone-800 to-stone-950`}
        >
          {shownCover && (
            <img
              src={shownCover}
              alt={`The current picture: ${words.noun}`}
              className={`h-full w-full ${words.shape === 'square' ? 'object-contain' : 'object-cover'}`}
            />
          )}
        </div>
        <div className="flex flex-col items-start gap-2">
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Choose from the library
          </Button>
          <label
            htmlFor={`${ids}-upload`}
            className="cursor-pointer rounded-lg px-4 py-2 text-sm font-semibold text-stone-200 hover:bg-white/10 focus-within:outline-2 focus-within:outline-accent-400"
          >
            {progress === null ? 'Upload a picture…' : `Uploading… ${Math.round(progress * 100)}%`}
            <input
              id={`${ids}-upload`}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              className="sr-only"
              disabled={progress !== null}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
          {value && (
            <Button variant="ghost" onClick={() => onChange(null)}>
              Remove {words.noun}
            </Button>
          )}
        </div>
      </div>
      <ModalDialog open={open} onCancel={() => setOpen(false)} titleId={`${ids}-title`}>
        <div className="p-5">
          <h2 id={`${ids}-title`} className="text-lg font-semibold text-white">
            Choose {words.noun}
          </h2>
          {images.isPending ? (
            <p className="mt-4 text-sm text-stone-300">
              {basePath ? 'Loading the pictures…' : 'No media library is set up yet.'}
            </p>
          ) : images.data?.length ? (
            <ul className="mt-4 grid max-h-96 grid-cols-2 gap-3 overflow-y-auto sm:grid-cols-3">
              {images.data.map((file: MediaFile) => (
                <li key={file.path}>
                  <button
                    type="button"
                    onClick={() => {
                      onChange(mediaUrl(file.path));
                      setOpen(false);
                    }}
                    className="block w-full overflow-hidden rounded-lg border border-white/10 hover:border-accent-400 focus-visible:border-accent-400"
                  >
                    <img
                      src={thumbnailSrc(file, version)}
                      alt={file.name}
                      loading="lazy"
                      className="aspect-[16/9] w-full object-cover"
                    />
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-4 text-sm text-stone-300">
              The library has no pictures yet: upload one instead.
            </p>
          )}
          <div className="mt-5 flex justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      </ModalDialog>
    </div>
  );
}
