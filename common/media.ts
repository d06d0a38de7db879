/** Media categories, their folders under the base path, and the extensions each accepts. */

export const MEDIA_CATEGORIES = ['image', 'video', 'audio'] as const;
export type MediaCategory = (typeof MEDIA_CATEGORIES)[number];

export const MEDIA_EXTENSIONS: Record<MediaCategory, readonly string[]> = {
  image: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'svg'],
  video: ['mp4', 'webm', 'ogg', 'mov', 'avi', 'mkv', 'm4v'],
  audio: ['mp3', 'wav', 'ogg', 'm4a', 'flac', 'aac', 'wma'],
};

/** A file in the library. `path` is relative to the base path, e.g. `image/sunset.jpg`. */
export interface MediaFile {
  path: string;
  name: string;
  size: number;
  category: MediaCategory;
  /** A small WebP picture of it for the console's grids (for a video, of its poster), once it has been made. */
  thumbnail?: string;
}

/** The URL under which the server serves a library file. */
export function mediaUrl(relativePath: string): string {
  return `/media/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Whether the server makes resized copies (for a video: a poster) of a library file. SVG stays
 * vector and GIF keeps its frames, so both are served as they are; audio has no picture.
 */
export function getsCopies(category: MediaCategory, name: string): boolean {
  if (category === 'video') return true;
  return category === 'image' && !/\.(svg|gif)$/i.test(name);
}
