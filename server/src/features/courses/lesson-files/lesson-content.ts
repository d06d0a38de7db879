import { open } from 'node:fs/promises';
import {
  LESSON_DOWNLOAD_EXTENSIONS,
  LESSON_MEDIA_EXTENSIONS,
  type LessonFileSlot,
  type LessonMediaKind,
} from '@common/courses';

export type FileVerdict = { mime: string; kind?: LessonMediaKind } | { reason: string };

/** For each download type, the formats its content may really be (file-type's names). */
const DOWNLOAD_FORMATS: Record<string, string[]> = {
  pdf: ['pdf'],
  zip: ['zip'],
  epub: ['epub', 'zip'],
  png: ['png', 'apng'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  webp: ['webp'],
  mp3: ['mp3'],
  m4a: ['m4a', 'mp4'],
  mp4: ['mp4', 'm4v'],
  webm: ['webm'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  odt: ['odt', 'zip'],
  ods: ['ods', 'zip'],
  odp: ['odp', 'zip'],
};
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};
const TEXT_SNIFF_BYTES = 64 * 1024;

/**
 * Judges a written lesson file by its content, not its name (file-type reads its first bytes):
 * the lesson's media must really be video or audio; a download must really be what its name
 * says (a ".pdf" that is an executable is refused). Answers the type to serve it with, or why not.
 */
export async function judgeLessonFile(
  filePath: string,
  extension: string,
  slot: LessonFileSlot,
): Promise<FileVerdict> {
  const named = extension ? `.${extension}` : 'a file without an extension';
  if (slot === 'media') {
    const isVideo = (LESSON_MEDIA_EXTENSIONS.video as readonly string[]).includes(extension);
    const isAudio = (LESSON_MEDIA_EXTENSIONS.audio as readonly string[]).includes(extension);
    if (!isVideo && !isAudio)
      return {
        reason: `${named} is not a video or audio type a lesson plays (${[...LESSON_MEDIA_EXTENSIONS.video, ...LESSON_MEDIA_EXTENSIONS.audio].join(', ')})`,
      };
    const detected = await detect(filePath);
    if (!detected) return { reason: 'its content is not a recognisable video or audio file' };
    const { mime } = detected;
    const ogg = mime === 'application/ogg' || /^(audio|video)\/(ogg|opus)$/.test(mime);
    // An .m4a often carries a generic MP4 brand; Ogg holds either, the name decides.
    if (isAudio && (mime.startsWith('audio/') || ogg || (extension === 'm4a' && mime === 'video/mp4')))
      return {
        mime: mime.startsWith('audio/') ? mime : extension === 'm4a' ? 'audio/mp4' : 'audio/ogg',
        kind: 'audio',
      };
    if (isVideo && (mime.startsWith('video/') || ogg))
      return {
        mime: ogg ? 'video/ogg' : mime === 'video/quicktime' ? 'video/mp4' : mime,
        kind: 'video',
      };
    return { reason: `its content is ${mime}, not ${isVideo ? 'video' : 'audio'}` };
  }
  if (!(LESSON_DOWNLOAD_EXTENSIONS as readonly string[]).includes(extension))
    return {
      reason: `${named} is not a download type lessons offer (${LESSON_DOWNLOAD_EXTENSIONS.join(', ')})`,
    };
  const text = TEXT_TYPES[extension];
  if (text) return (await looksLikeText(filePath)) ? { mime: text } : { reason: 'its content is not text' };
  const detected = await detect(filePath);
  if (!detected) return { reason: `its content is not a recognisable .${extension} file` };
  if (!DOWNLOAD_FORMATS[extension]?.includes(detected.ext))
    return { reason: `its content is ${detected.mime}, not a .${extension} file` };
  return { mime: detected.mime };
}

async function detect(filePath: string): Promise<{ ext: string; mime: string } | undefined> {
  // Loaded with the first upload, not at start (see media-content.ts).
  const { fileTypeFromFile } = await import('file-type');
  return fileTypeFromFile(filePath);
}

/** Text has no NUL byte in its first 64 KB (a binary file nearly always has one). */
async function looksLikeText(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(TEXT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TEXT_SNIFF_BYTES, 0);
    return !buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
