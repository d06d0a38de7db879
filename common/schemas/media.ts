import { z } from 'zod';
import { MEDIA_CATEGORIES, type MediaFile } from '../media';
import type { RefusalWith } from './envelopes';

/** The most paths one delete call may name; the library screen never sends more than it lists. */
export const MAX_DELETE_PATHS = 1000;

export const mediaCategorySchema = z.enum(MEDIA_CATEGORIES, {
  error: 'Media type must be image, video or audio',
});

const basePathSchema = z
  .string({ error: 'A base path is required.' })
  .trim()
  .min(1, 'Please set a base path in Background Manager first.')
  .max(4096, 'The base path is too long.');

/** Query of the file lists. Without a base path the configured one is used. */
export const mediaFilesQuery = z.object({
  basePath: basePathSchema.optional(),
  category: mediaCategorySchema.optional(),
});

export const mediaScanBody = z.object({ basePath: basePathSchema.optional() });

export const mediaLastScanQuery = z.object({ basePath: basePathSchema.optional() });

export const mediaDeleteBody = z.object({
  basePath: basePathSchema,
  paths: z
    .array(z.string({ error: 'Each path must be a string' }).max(1024, 'A path is too long'), {
      error: 'paths must be a list of file paths',
    })
    .min(1, 'No files selected.')
    .max(MAX_DELETE_PATHS, `At most ${MAX_DELETE_PATHS} files can be deleted at once.`),
  /** Set when the administrator was told which courses show these pictures and still deletes them. */
  confirmCourseUse: z.boolean({ error: 'confirmCourseUse must be true or false' }).optional(),
});

export type MediaDeleteBody = z.infer<typeof mediaDeleteBody>;

export interface ScanDiscoveries {
  total: number;
  images: number;
  videos: number;
  audio: number;
}

/** The last scan of a base path; its timestamp is the cache-busting version of media URLs. */
export interface LastScan {
  timestamp: string;
  discoveries: ScanDiscoveries;
}

/** POST /api/media/scan-files */
export interface ScanResponse extends LastScan {
  success: true;
  message: string;
}

/** GET /api/media/last-scan */
export interface LastScanResponse {
  success: true;
  /** The base path the Background Manager has configured (the library the site shows). */
  basePath: string;
  lastScan: LastScan | null;
  /** Why files cannot be written to the library (read-only, permission, full disk), in plain words; null when they can. */
  folderProblem: string | null;
}

/** GET /api/media/video-posters: whether this server can take a poster from each video (it needs ffmpeg). */
export interface VideoPostersResponse {
  success: true;
  available: boolean;
}

/** GET /api/media/files, /files/images, /files/videos, /files/audio */
export interface MediaFilesResponse {
  success: true;
  files: MediaFile[];
  /** Timestamp of the last scan of this base path, or null when never scanned. */
  timestamp: string | null;
}

export interface UploadedFile {
  name: string;
  path: string;
  size: number;
}

export interface RejectedFile {
  name: string;
  reason: string;
}

/** POST /api/media/upload: some files taken (the refused ones listed). */
export interface UploadResponse {
  success: true;
  uploadedCount: number;
  files: UploadedFile[];
  rejected: RejectedFile[];
  message: string;
}

/** POST /api/media/upload when no file was taken: the error, and the spec's fields beside it. */
export type UploadRefusal = RefusalWith<{
  uploadedCount: 0;
  files: UploadedFile[];
  rejected: RejectedFile[];
}>;

/** POST /api/media/delete */
export interface DeleteResponse {
  success: true;
  message: string;
  summary: { deleted: number; failed: Array<{ path: string; reason: string }> };
}
