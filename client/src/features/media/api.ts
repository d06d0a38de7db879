import type { MediaCategory, MediaFile } from '@common/media';
import type {
  DeleteResponse,
  LastScanResponse,
  MediaFilesResponse,
  RejectedFile,
  ScanResponse,
  UploadResponse,
  VideoPostersResponse,
} from '@common/schemas/media';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, errorCodeOf } from '../../lib/api-client';
import { clearToken, getToken } from '../../lib/auth-token';

export const mediaKeys = {
  all: ['media'] as const,
  lastScan: ['media', 'last-scan'] as const,
  videoPosters: ['media', 'video-posters'] as const,
  files: (basePath: string, category: MediaCategory) => ['media', 'files', basePath, category] as const,
};

/** The configured base path (from the Background Manager's settings) and its last scan. */
export function fetchLastScan(): Promise<LastScanResponse> {
  return api<LastScanResponse>('/api/media/last-scan', { auth: true });
}

/** Whether the server can take poster pictures from videos (it needs ffmpeg). */
export async function fetchVideoPosters(): Promise<{ available: boolean }> {
  return api<VideoPostersResponse>('/api/media/video-posters', { auth: true });
}

/** Images and videos have their own lists; audio is the general list by category. */
export async function fetchFiles(basePath: string, category: MediaCategory): Promise<MediaFile[]> {
  const query = `basePath=${encodeURIComponent(basePath)}`;
  const url =
    category === 'image'
      ? `/api/media/files/images?${query}`
      : category === 'video'
        ? `/api/media/files/videos?${query}`
        : `/api/media/files?${query}&category=audio`;
  return (await api<MediaFilesResponse>(url, { auth: true })).files;
}

/** Scans the library: its last scan becomes this one, and the file lists are read again. */
export function useScanFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (basePath: string) =>
      api<ScanResponse>('/api/media/scan-files', { method: 'POST', body: { basePath }, auth: true }),
    onSuccess: (scan, basePath) => {
      queryClient.setQueryData<LastScanResponse>(mediaKeys.lastScan, (current) => ({
        success: true,
        basePath,
        lastScan: { timestamp: scan.timestamp, discoveries: scan.discoveries },
        folderProblem: current?.folderProblem ?? null,
      }));
      return queryClient.invalidateQueries({ queryKey: ['media', 'files'] });
    },
  });
}

/** Deletes files; the panel scans again afterwards, which reads the lists again. */
export function useDeleteFiles() {
  return useMutation({
    mutationFn: ({
      basePath,
      paths,
      confirmCourseUse,
    }: {
      basePath: string;
      paths: string[];
      /** After the administrator was told which course shows a picture and still deletes it. */
      confirmCourseUse?: boolean;
    }) =>
      api<DeleteResponse>('/api/media/delete', {
        method: 'POST',
        body: { basePath, paths, ...(confirmCourseUse ? { confirmCourseUse } : {}) },
        auth: true,
      }),
  });
}

/** One file per request, each with its own progress (see uploadFile); the panel scans again afterwards. */
export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}

export interface UploadRequest {
  file: File;
  mediaType: MediaCategory;
  basePath: string;
  /** Called with the share of the file sent so far, 0 to 1. */
  onProgress: (fraction: number) => void;
}

/**
 * Uploads one file. XMLHttpRequest rather than fetch, because only it reports upload progress.
 * The fields go before the file: the server reads them first to know where the file belongs.
 * Errors follow api(): the server's message (here the refused file's reason), else 'HTTP {status}'.
 */
function uploadFile({ file, mediaType, basePath, onProgress }: UploadRequest): Promise<UploadResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/media/upload');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: Partial<UploadResponse> & { rejected?: RejectedFile[] } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { message: xhr.responseText };
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as UploadResponse);
        return;
      }
      if (xhr.status === 401) clearToken();
      // One file per request: a refusal of it is its reason alone (the queue shows whose it is).
      const message = body.rejected?.[0]?.reason ?? body.message;
      reject(new ApiError(message || `HTTP ${xhr.status}`, xhr.status, errorCodeOf(body), Boolean(message)));
    };
    xhr.onerror = () => reject(new ApiError('the connection was lost', 0, 'NETWORK', false));
    const form = new FormData();
    form.append('mediaType', mediaType);
    form.append('basePath', basePath);
    form.append('files', file, file.name);
    xhr.send(form);
  });
}
