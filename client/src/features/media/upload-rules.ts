import { MAX_UPLOAD_BYTES } from '@common/constants';
import { MEDIA_EXTENSIONS, type MediaCategory } from '@common/media';

/** How each media type is named on screen: the tabs and messages. */
export const CATEGORY_LABELS: Record<MediaCategory, string> = {
  image: 'Images',
  video: 'Videos',
  audio: 'Audio',
};

export interface SelectionCheck {
  accepted: File[];
  /** What to tell the person about refused files, or null when every file was accepted. */
  message: string | null;
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * A file is valid when its MIME type or its extension fits the chosen media
 * type and it is at most 200MB. The valid files are queued even when others are refused.
 * The server checks again, by content too: this only spares a pointless upload.
 */
export function checkSelection(files: readonly File[], category: MediaCategory): SelectionCheck {
  const tooLarge: string[] = [];
  const invalid: string[] = [];
  const accepted: File[] = [];
  for (const file of files) {
    const fits =
      file.type.startsWith(`${category}/`) || MEDIA_EXTENSIONS[category].includes(extension(file.name));
    if (!fits) invalid.push(file.name);
    else if (file.size > MAX_UPLOAD_BYTES) tooLarge.push(file.name);
    else accepted.push(file);
  }
  const messages = [
    tooLarge.length ? `Files too large (max 200MB): ${tooLarge.join(', ')}` : '',
    invalid.length
      ? `Invalid file types: ${invalid.join(', ')}. Please select valid ${category} files (${MEDIA_EXTENSIONS[category].join(', ')}).`
      : '',
  ].filter(Boolean);
  return { accepted, message: messages.length ? messages.join(' ') : null };
}

/** The `accept` list of the file chooser: the type's extensions and its MIME family. */
export function acceptFor(category: MediaCategory): string {
  return [...MEDIA_EXTENSIONS[category].map((ext) => `.${ext}`), `${category}/*`].join(',');
}
