import { open } from 'node:fs/promises';
import type { MediaCategory } from '@common/media';

/** Raster formats the image folder holds (SVG is text and checked on its own). */
const IMAGE_FORMATS = new Set(['jpg', 'png', 'apng', 'gif', 'webp', 'bmp']);
/** How much of an SVG is read to find its root element: prologs and comments come first. */
const SVG_SNIFF_BYTES = 64 * 1024;

/**
 * Judges a written file by its content, not its name: does it really hold an image, video or
 * audio stream fitting `category`? Answers null when it does, else the reason it was refused.
 */
export async function checkContent(
  filePath: string,
  category: MediaCategory,
  extension: string,
): Promise<string | null> {
  if (extension === 'svg') {
    return (await looksLikeSvg(filePath)) ? null : 'its content is not an SVG image';
  }
  // Loaded with the first upload, not at start (it cost every server process about 50 ms).
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(filePath);
  if (!detected) return `its content is not a recognisable ${category} file`;
  if (fits(detected.ext, detected.mime, category, extension)) return null;
  return `its content is ${detected.mime}, not ${category === 'image' ? 'an image' : category}`;
}

function fits(format: string, mime: string, category: MediaCategory, extension: string): boolean {
  // Ogg is one container for both sound and pictures; the folder chosen decides what it is.
  const isOgg =
    extension === 'ogg' && (mime === 'application/ogg' || /^(audio|video)\/(ogg|opus)$/.test(mime));
  switch (category) {
    case 'image':
      return IMAGE_FORMATS.has(format);
    case 'video':
      return mime.startsWith('video/') || isOgg;
    case 'audio':
      return (
        mime.startsWith('audio/') ||
        isOgg ||
        // WMA lives in an ASF container; many .m4a files carry a generic MP4 brand.
        (extension === 'wma' && format === 'asf') ||
        (extension === 'm4a' && mime === 'video/mp4')
      );
  }
}

/**
 * An SVG is XML whose root element is <svg>. Anything may be inside it (scripts included):
 * /media serves it under a sandboxing policy, so it can be looked at but never run.
 */
async function looksLikeSvg(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SVG_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SVG_SNIFF_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return false;
    const text = head.toString('utf8').replace(/^\uFEFF/, '');
    const prolog = /^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*/i;
    const rest = text.slice(prolog.exec(text)?.[0].length ?? 0);
    return /^<svg[\s>/]/.test(rest);
  } finally {
    await handle.close();
  }
}
