import { MAX_UPLOAD_BYTES } from '@common/constants';
import { ERROR_STATUS, type ErrorCode } from '@common/errors';
import type { MediaCategory } from '@common/media';
import {
  type DeleteResponse,
  type LastScanResponse,
  type MediaFilesResponse,
  mediaDeleteBody,
  mediaFilesQuery,
  mediaLastScanQuery,
  mediaScanBody,
  type ScanResponse,
  type UploadRefusal,
  type UploadResponse,
  type VideoPostersResponse,
} from '@common/schemas/media';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { errorBody, refuseUnknownPaths } from '../../http/error-handler';
import { AppError } from '../../lib/app-error';
import { parseInput } from '../../lib/validate';
import { ffmpegAvailable } from './copies/poster';
import { type CoursePictureUses, describeUse, libraryPathOfUrl } from './course-uses';
import { type MediaService, mediaWriteError } from './media.service';
import { deleteMedia } from './media-delete';
import { receiveUpload } from './media-upload';

/** Files one upload request may carry; the console sends one per request to show progress. */
const MAX_FILES_PER_UPLOAD = 20;

/** The media API: list, scan, upload, delete. Every route is for administrators only. */
export function mediaRoutes(
  media: MediaService,
  coursePictures: CoursePictureUses,
  ctx: Pick<AppContext, 'guards' | 'activity' | 'slideshowSettings' | 'mediaFolder'>,
) {
  return async (app: FastifyInstance) => {
    // Checked before the body is read: a stranger's upload is refused before a byte hits disk.
    app.addHook('onRequest', ctx.guards.requireAdmin);
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: {
        fileSize: MAX_UPLOAD_BYTES,
        files: MAX_FILES_PER_UPLOAD,
        fields: 10,
        fieldSize: 8 * 1024,
        parts: MAX_FILES_PER_UPLOAD + 10,
      },
    });

    const listRoute =
      (category?: MediaCategory) =>
      async (request: { query: unknown }): Promise<MediaFilesResponse> => {
        const query = parseInput(mediaFilesQuery, request.query);
        const result = await media.list(query.basePath, category ?? query.category);
        return { success: true, ...result };
      };
    app.get<{ Reply: MediaFilesResponse }>('/files/images', listRoute('image'));
    app.get<{ Reply: MediaFilesResponse }>('/files/videos', listRoute('video'));
    app.get<{ Reply: MediaFilesResponse }>('/files/audio', listRoute('audio'));
    app.get<{ Reply: MediaFilesResponse }>('/files', listRoute());

    app.post<{ Reply: ScanResponse }>('/scan-files', async (request) => {
      const { basePath } = parseInput(mediaScanBody, request.body);
      const scan = await media.scan(basePath);
      await ctx.slideshowSettings.markChanged();
      return {
        success: true,
        message: `Scan complete: ${scan.discoveries.total} files found`,
        ...scan,
      };
    });

    app.get<{ Reply: LastScanResponse }>('/last-scan', async (request) => {
      const { basePath } = parseInput(mediaLastScanQuery, request.query);
      return { success: true, ...(await media.lastScan(basePath)) };
    });

    app.get<{ Reply: VideoPostersResponse }>('/video-posters', async () => ({
      success: true,
      available: await ffmpegAvailable(),
    }));

    app.post<{ Reply: UploadResponse | UploadRefusal }>('/upload', async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('VALIDATION', 'Send the files as multipart/form-data.');
      let base = '';
      const { files, rejected } = await receiveUpload(request.parts(), async (basePath) => {
        base = await media.resolveBase(basePath);
        return base;
      }).catch(async (error: unknown) => {
        throw (await mediaWriteError(error, base)) ?? error;
      });
      const refusals = rejected.map(({ name, reason }) => ({ name, reason }));
      const refusedText = refusals.map((r) => `${r.name} (${r.reason})`).join('; ');
      if (files.length === 0) {
        if (refusals.length === 0) throw new AppError('VALIDATION', 'No files to upload.');
        // One kind of refusal gets its own status; a mix is a plain bad request.
        const kinds = new Set(rejected.map((r) => r.kind));
        const only = kinds.size === 1 ? [...kinds][0] : undefined;
        const code: ErrorCode =
          only === 'size' ? 'PAYLOAD_TOO_LARGE' : only === 'type' ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION';
        return reply.code(ERROR_STATUS[code]).send({
          ...errorBody(code, `No files were uploaded. Refused: ${refusedText}`),
          uploadedCount: 0,
          files: [],
          rejected: refusals,
        });
      }
      // Visitors' slideshows pick up the new files on their next load, not after the cache ages out.
      await ctx.slideshowSettings.markChanged();
      await ctx.activity.record(request, {
        kind: 'media.uploaded',
        summary: `Uploaded ${files.length} file(s): ${firstNames(files.map((f) => f.name))}${refusals.length ? `; refused ${refusals.length}` : ''}`,
        after: { files: files.map((f) => f.path), rejected: refusals },
      });
      // Made in the background: the answer does not wait, and until they exist the original is served.
      media.makeCopies(
        base,
        files.map((f) => f.path),
      );
      return {
        success: true,
        uploadedCount: files.length,
        files,
        rejected: refusals,
        message: `Uploaded ${files.length} file(s).${refusals.length ? ` Refused: ${refusedText}` : ''}`,
      };
    });

    refuseUnknownPaths(app);

    /** Courses copy pictures of the site's media folder: a delete there that takes one they came from asks first. */
    async function refuseCoursePictures(base: string, paths: readonly string[]): Promise<void> {
      const folder = await ctx.mediaFolder.get();
      if (!folder || (await media.resolveBase(folder).catch(() => null)) !== base) return;
      const asked = new Set(paths);
      const uses = (await coursePictures()).filter((use) => asked.has(libraryPathOfUrl(use.url) ?? ''));
      if (uses.length === 0) return;
      const lines = uses.map((use) => `${libraryPathOfUrl(use.url)} is shown by ${describeUse(use)}`);
      throw new AppError(
        'PICTURE_IN_COURSE',
        `Still used by a course: ${lines.join('; ')}. Delete anyway? The course keeps its own copy.`,
      );
    }

    app.post<{ Reply: DeleteResponse }>('/delete', async (request) => {
      const body = parseInput(mediaDeleteBody, request.body);
      const base = await media.resolveBase(body.basePath);
      if (!body.confirmCourseUse) await refuseCoursePictures(base, body.paths);
      const summary = await deleteMedia(base, body.paths);
      if (summary.deleted > 0) await ctx.slideshowSettings.markChanged();
      if (summary.deleted === 0) {
        const reasons = summary.failed.map((f) => `${f.path} (${f.reason})`).join('; ');
        const allMissing = summary.failed.every((f) => f.reason === 'not found');
        throw new AppError(allMissing ? 'NOT_FOUND' : 'VALIDATION', `Nothing was deleted: ${reasons}`);
      }
      await ctx.activity.record(request, {
        kind: 'media.deleted',
        summary: `Deleted ${summary.deleted} file(s): ${firstNames(body.paths.filter((p) => !summary.failed.some((f) => f.path === p)))}`,
        before: { files: body.paths },
        after: { failed: summary.failed },
      });
      return {
        success: true,
        message: `Deleted ${summary.deleted} file(s).`,
        summary,
      };
    });
  };
}

/** The first few names of a list, for a one-line summary. */
function firstNames(names: string[], shown = 3): string {
  const head = names.slice(0, shown).join(', ');
  return names.length > shown ? `${head} and ${names.length - shown} more` : head;
}
