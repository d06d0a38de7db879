import type { LessonFileSlot } from '@common/courses';
import type { AdminCourse, AdminCourseRow, AdminLesson } from '@common/schemas/course-views';
import type {
  CoursesSettingsBody,
  CourseUpdateBody,
  LessonUpdateBody,
  OutlineOrderBody,
  SectionUpdateBody,
} from '@common/schemas/courses';
import type { DataAnswer } from '@common/schemas/envelopes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, errorCodeOf } from '../../../lib/api-client';
import { clearToken, getToken } from '../../../lib/auth-token';

const base = '/api/admin/courses';
const data = async <T>(promise: Promise<DataAnswer<T>>) => (await promise).data;

export const adminCourseKeys = {
  all: ['admin', 'courses'] as const,
  list: ['admin', 'courses', 'list'] as const,
  settings: ['admin', 'courses', 'settings'] as const,
  course: (id: string) => ['admin', 'courses', 'course', id] as const,
  lesson: (id: string) => ['admin', 'courses', 'lesson', id] as const,
};

export function useCourseList() {
  return useQuery({
    queryKey: adminCourseKeys.list,
    queryFn: ({ signal }) => data(api<DataAnswer<AdminCourseRow[]>>(base, { auth: true, signal })),
  });
}

export function useAdminCourse(id: string) {
  return useQuery({
    queryKey: adminCourseKeys.course(id),
    queryFn: ({ signal }) => data(api<DataAnswer<AdminCourse>>(`${base}/${id}`, { auth: true, signal })),
  });
}

export function useAdminLesson(courseId: string, lessonId: string) {
  return useQuery({
    queryKey: adminCourseKeys.lesson(lessonId),
    queryFn: ({ signal }) =>
      data(api<DataAnswer<AdminLesson>>(`${base}/${courseId}/lessons/${lessonId}`, { auth: true, signal })),
  });
}

export function useCoursesSettings() {
  return useQuery({
    queryKey: adminCourseKeys.settings,
    queryFn: ({ signal }) =>
      data(api<DataAnswer<CoursesSettingsBody>>(`${base}/settings`, { auth: true, signal })),
  });
}

/**
 * A change to a course: the answer is the course as the editor shows it, put in the cache at
 * once; the list (with its numbers) is fetched again.
 */
function useCourseChange<V>(courseId: string, send: (vars: V) => Promise<AdminCourse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (course) => {
      queryClient.setQueryData(adminCourseKeys.course(courseId), course);
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.list });
    },
  });
}

const call = <T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  data(api<DataAnswer<T>>(url, { method, body, auth: true }));

export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => call<AdminCourse>('POST', base, { title }),
    onSuccess: (course) => {
      queryClient.setQueryData(adminCourseKeys.course(course.id), course);
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.list });
    },
  });
}

export function useUpdateCourse(courseId: string) {
  return useCourseChange(courseId, (body: CourseUpdateBody) =>
    call<AdminCourse>('PUT', `${base}/${courseId}`, body),
  );
}

export function useDeleteCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (courseId: string) => call<{ id: string }>('DELETE', `${base}/${courseId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminCourseKeys.list }),
  });
}

export function useReorder(courseId: string) {
  return useCourseChange(courseId, (body: OutlineOrderBody) =>
    call<AdminCourse>('PUT', `${base}/${courseId}/order`, body),
  );
}

export function useAddSection(courseId: string) {
  return useCourseChange(courseId, (title: string) =>
    call<AdminCourse>('POST', `${base}/${courseId}/sections`, { title }),
  );
}

export function useUpdateSection(courseId: string) {
  return useCourseChange(courseId, ({ id, body }: { id: string; body: SectionUpdateBody }) =>
    call<AdminCourse>('PUT', `${base}/${courseId}/sections/${id}`, body),
  );
}

export function useDeleteSection(courseId: string) {
  return useCourseChange(courseId, (id: string) =>
    call<AdminCourse>('DELETE', `${base}/${courseId}/sections/${id}`),
  );
}

export function useAddLesson(courseId: string) {
  return useCourseChange(courseId, async ({ sectionId, title }: { sectionId: string; title: string }) => {
    const { course } = await call<{ lesson: AdminLesson; course: AdminCourse }>(
      'POST',
      `${base}/${courseId}/sections/${sectionId}/lessons`,
      { title },
    );
    return course;
  });
}

export function useDeleteLesson(courseId: string) {
  return useCourseChange(courseId, (lessonId: string) =>
    call<AdminCourse>('DELETE', `${base}/${courseId}/lessons/${lessonId}`),
  );
}

/** A lesson's change: the lesson in the cache, and the course's outline fetched again (titles, kinds). */
export function useLessonChange<V>(
  courseId: string,
  lessonId: string,
  send: (vars: V) => Promise<AdminLesson>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (lesson) => {
      queryClient.setQueryData(adminCourseKeys.lesson(lessonId), lesson);
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.course(courseId) });
    },
  });
}

export function useUpdateLesson(courseId: string, lessonId: string) {
  return useLessonChange(courseId, lessonId, (body: LessonUpdateBody) =>
    call<AdminLesson>('PUT', `${base}/${courseId}/lessons/${lessonId}`, body),
  );
}

export function useRemoveLessonFile(courseId: string, lessonId: string) {
  return useLessonChange(courseId, lessonId, (fileId: string) =>
    call<AdminLesson>('DELETE', `${base}/${courseId}/lessons/${lessonId}/files/${fileId}`),
  );
}

export function useSaveCoursesSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CoursesSettingsBody) => call<CoursesSettingsBody>('PUT', `${base}/settings`, body),
    onSuccess: (saved) => queryClient.setQueryData(adminCourseKeys.settings, saved),
  });
}

export async function previewMarkdown(
  markdown: string,
  lessonId: string,
  signal?: AbortSignal,
): Promise<string> {
  return (
    await data(
      api<DataAnswer<{ html: string }>>(`${base}/markdown-preview`, {
        method: 'POST',
        body: { markdown, lessonId },
        auth: true,
        signal,
      }),
    )
  ).html;
}

/**
 * Uploads one lesson file with its progress (XMLHttpRequest: fetch reports no upload progress).
 * The field `slot` goes before the file: the server reads it first.
 */
export function uploadLessonFile(options: {
  courseId: string;
  lessonId: string;
  slot: LessonFileSlot;
  file: File;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}): Promise<AdminLesson> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${base}/${options.courseId}/lessons/${options.lessonId}/files`);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { data?: AdminLesson; message?: string; code?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { message: xhr.responseText };
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.data) {
        options.onProgress(1);
        resolve(body.data);
        return;
      }
      if (xhr.status === 401) clearToken();
      reject(
        new ApiError(
          body.message || `HTTP ${xhr.status}`,
          xhr.status,
          errorCodeOf(body),
          Boolean(body.message),
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError('the connection was lost', 0, 'NETWORK', false));
    xhr.onabort = () => reject(new ApiError('the upload was cancelled', 0, 'ABORTED', false));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('slot', options.slot);
    form.append('file', options.file, options.file.name);
    xhr.send(form);
  });
}
