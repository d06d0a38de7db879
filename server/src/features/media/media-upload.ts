import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_UPLOAD_BYTES } from '@common/constants';
import { MEDIA_EXTENSIONS, type MediaCategory } from '@common/media';
import { mediaCategorySchema, type UploadedFile } from '@common/schemas/media';
import type { Multipart } from '@fastify/multipart';
import { parseInput } from '../../lib/validate';
import { checkContent } from './media-content';
import { ensureCategoryFolder } from './media-library';
import { displayName, extensionOf, placeExclusively, safeStem } from './safe-file-name';

/** Why a file was refused; the route turns an all-refused upload into the fitting status. */
export type RefusalKind = 'size' | 'type' | 'order';

export interface Refusal {
  name: string;
  reason: string;
  kind: RefusalKind;
}

export interface UploadOutcome {
  files: UploadedFile[];
  rejected: Refusal[];
}

const MAX_MB = MAX_UPLOAD_BYTES / 1024 / 1024;

/**
 * Reads a multipart upload part by part. The fields `mediaType` and `basePath` come first; each
 * file is then streamed straight to a hidden temporary file in its folder (never held in
 * memory), checked by size, extension and content, and only then given its final, server-made
 * name. A refused, failed or aborted file leaves nothing behind.
 */
export async function receiveUpload(
  parts: AsyncIterableIterator<Multipart>,
  resolveBase: (requested: string) => Promise<string>,
): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { files: [], rejected: [] };
  let category: MediaCategory | undefined;
  let requestedBase: string | undefined;
  let base: string | undefined;

  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.fieldname === 'mediaType') category = parseInput(mediaCategorySchema, part.value);
      if (part.fieldname === 'basePath') requestedBase = String(part.value);
      continue;
    }
    const name = displayName(part.filename);
    if (!category || requestedBase === undefined) {
      await drain(part.file);
      outcome.rejected.push({
        name,
        kind: 'order',
        reason: 'the fields mediaType and basePath must be sent before the files',
      });
      continue;
    }
    base ??= await resolveBase(requestedBase);
    const result = await saveFile(part.file, part.filename, category, base);
    if ('reason' in result) outcome.rejected.push({ name, ...result });
    else outcome.files.push(result);
  }
  return outcome;
}

async function saveFile(
  stream: Readable & { truncated?: boolean },
  clientName: string,
  category: MediaCategory,
  base: string,
): Promise<UploadedFile | { reason: string; kind: RefusalKind }> {
  const extension = extensionOf(clientName);
  if (!MEDIA_EXTENSIONS[category].includes(extension)) {
    await drain(stream);
    return {
      kind: 'type',
      reason: `${extension ? `.${extension}` : 'a file without an extension'} is not an accepted ${category} type (allowed: ${MEDIA_EXTENSIONS[category].join(', ')})`,
    };
  }
  const folder = await ensureCategoryFolder(base, category);
  // Hidden, so neither the file lists nor /media ever show a half-written file.
  const temp = path.join(folder, `.upload-${randomUUID()}.part`);
  try {
    // flush: the bytes are on disk before the file gets its name, so a crash never leaves a
    // complete-looking file with missing content.
    await pipeline(stream, createWriteStream(temp, { flags: 'wx', flush: true }));
    // The multipart parser stops passing bytes on at the limit and marks the stream truncated.
    if (stream.truncated) return { kind: 'size', reason: `it is larger than ${MAX_MB}MB` };
    const refusal = await checkContent(temp, category, extension);
    if (refusal) return { kind: 'type', reason: refusal };
    const { size } = await stat(temp);
    const stored = await placeExclusively(temp, folder, safeStem(clientName), extension);
    return { name: stored, path: `${category}/${stored}`, size };
  } finally {
    await rm(temp, { force: true });
  }
}

/** Reads a refused file to its end so that the parts after it can still be read. */
async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discarded
  }
}
