import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type LessonFileSlot, type LessonMediaKind, MAX_LESSON_FILE_BYTES } from '@common/courses';
import { lessonFileSlotSchema } from '@common/schemas/courses';
import type { Multipart } from '@fastify/multipart';
import { AppError } from '../../../lib/app-error';
import { parseInput } from '../../../lib/validate';
import { displayName, extensionOf } from '../../media/safe-file-name';
import { judgeLessonFile } from './lesson-content';

/** A stored name: server-made, so nothing a client sends can become a path. */
const STORED_NAME = /^[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

/** The lessons folder: private files, read only by the signed-link route. */
export class LessonFolder {
  constructor(readonly dir: string) {}

  pathOf(storedName: string): string {
    if (!STORED_NAME.test(storedName)) throw new Error(`Not a stored lesson file name: ${storedName}`);
    return path.join(this.dir, storedName);
  }

  async remove(storedName: string): Promise<void> {
    await rm(this.pathOf(storedName), { force: true });
  }
}

export interface ReceivedFile {
  slot: LessonFileSlot;
  name: string;
  storedName: string;
  size: number;
  mime: string;
  /** The media's kind, read from its content (a download has none). */
  kind?: LessonMediaKind;
}

/**
 * Reads a multipart upload of one lesson file: the field `slot` (media or download) first, then
 * the file, streamed straight to a hidden temporary file in the lessons folder (never held in
 * memory, however large), checked by size, name and content, and only then given its final,
 * server-made name. A refused, failed or aborted upload leaves nothing behind.
 */
export async function receiveLessonFile(
  parts: AsyncIterableIterator<Multipart>,
  folder: LessonFolder,
): Promise<ReceivedFile> {
  let slot: LessonFileSlot | undefined;
  let received: ReceivedFile | undefined;
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.fieldname === 'slot') slot = parseInput(lessonFileSlotSchema, part.value);
      continue;
    }
    if (!slot || received) {
      await drain(part.file);
      throw new AppError(
        'VALIDATION',
        received ? 'Send one file at a time.' : 'The field slot must come before the file.',
      );
    }
    received = await saveFile(part.file, part.filename, slot, folder);
  }
  if (!received) throw new AppError('VALIDATION', 'No file to upload.');
  return received;
}

async function saveFile(
  stream: Readable & { truncated?: boolean },
  clientName: string,
  slot: LessonFileSlot,
  folder: LessonFolder,
): Promise<ReceivedFile> {
  const name = displayName(clientName);
  const extension = extensionOf(clientName);
  await mkdir(folder.dir, { recursive: true });
  const temp = path.join(folder.dir, `.upload-${randomUUID()}.part`);
  try {
    // flush: on disk before it gets its name, so a crash never leaves a complete-looking file.
    await pipeline(stream, createWriteStream(temp, { flags: 'wx', flush: true }));
    if (stream.truncated)
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `${name}: it is larger than ${MAX_LESSON_FILE_BYTES / 1024 ** 3} GB`,
      );
    const verdict = await judgeLessonFile(temp, extension, slot);
    if ('reason' in verdict) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${name}: ${verdict.reason}`);
    const { size } = await stat(temp);
    const storedName = `${randomBytes(16).toString('hex')}.${extension}`;
    await rename(temp, folder.pathOf(storedName));
    return { slot, name, storedName, size, mime: verdict.mime, kind: verdict.kind };
  } finally {
    await rm(temp, { force: true });
  }
}

async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discarded
  }
}
