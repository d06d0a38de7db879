import { getsCopies, type MediaFile, mediaUrl } from '@common/media';

/** While thumbnails are being made (seconds per picture), a file list asks again this often… */
const THUMBNAIL_POLL_MS = 2000;
/** …this many times; after that (a file that is no picture, a server without ffmpeg) rarely. */
const QUICK_POLLS = 15;
const SLOW_POLL_MS = 30_000;

/**
 * What a console card shows for a library file: its thumbnail once the server has made
 * it; until then (and for SVG and GIF, which get none) the file itself.
 */
export function thumbnailSrc(file: MediaFile, version?: string | null): string {
  return file.thumbnail ?? `${mediaUrl(file.path)}${version ? `?v=${encodeURIComponent(version)}` : ''}`;
}

/** Whether the server is still making a thumbnail for some file of the list. */
export function awaitingThumbnails(files: readonly MediaFile[] | undefined): boolean {
  return Boolean(files?.some((file) => !file.thumbnail && getsCopies(file.category, file.name)));
}

/** A react-query `refetchInterval`: the list is asked again until its thumbnails are there. */
export function thumbnailPolling(query: {
  state: { data?: readonly MediaFile[]; dataUpdateCount: number };
}): number | false {
  if (!awaitingThumbnails(query.state.data)) return false;
  return query.state.dataUpdateCount < QUICK_POLLS ? THUMBNAIL_POLL_MS : SLOW_POLL_MS;
}

/** The thumbnails of a list of files by the URL playlists keep for them (`/media/image/a.jpg`). */
export function thumbnailsByUrl(files: readonly MediaFile[]): Map<string, string> {
  return new Map(files.flatMap((file) => (file.thumbnail ? [[mediaUrl(file.path), file.thumbnail]] : [])));
}
