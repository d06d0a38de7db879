import type { PreviewViewer } from '@common/courses';
import type {
  CompleteResult,
  CourseCard,
  CourseDetail,
  LessonView,
  MemberHome,
  PositionResult,
} from '@common/schemas/course-views';
import type { DataAnswer } from '@common/schemas/envelopes';
import { api } from '../../lib/api-client';
import { getToken } from '../../lib/auth-token';

/**
 * The courses API as the public pages call it: plain functions (no react-query, which public
 * pages never load). The token is sent when there is one, so that a member gets their own view.
 */
const signedIn = () => Boolean(getToken());

export async function fetchCourses(signal?: AbortSignal): Promise<CourseCard[]> {
  return (await api<DataAnswer<CourseCard[]>>('/api/courses', { auth: signedIn(), signal })).data;
}

export async function fetchCourse(
  slug: string,
  preview: PreviewViewer | null,
  signal?: AbortSignal,
): Promise<CourseDetail> {
  const query = preview ? `?as=${preview}` : '';
  return (
    await api<DataAnswer<CourseDetail>>(`/api/courses/${encodeURIComponent(slug)}${query}`, {
      auth: signedIn(),
      signal,
    })
  ).data;
}

export async function fetchLesson(
  slug: string,
  lessonId: string,
  preview: PreviewViewer | null,
  signal?: AbortSignal,
): Promise<LessonView> {
  const query = preview ? `?as=${preview}` : '';
  const url = `/api/courses/${encodeURIComponent(slug)}/lessons/${encodeURIComponent(lessonId)}${query}`;
  return (await api<DataAnswer<LessonView>>(url, { auth: signedIn(), signal })).data;
}

export async function fetchHome(signal?: AbortSignal): Promise<MemberHome> {
  return (await api<DataAnswer<MemberHome>>('/api/courses/home', { auth: true, signal })).data;
}

export async function completeLesson(lessonId: string): Promise<CompleteResult> {
  return (
    await api<DataAnswer<CompleteResult>>(`/api/courses/lessons/${lessonId}/complete`, {
      method: 'POST',
      auth: true,
    })
  ).data;
}

/**
 * Saves where playback is. `keepalive` lets the request finish after the page is gone (closing
 * the tab, following a link); unlike sendBeacon it can carry the bearer token.
 */
export async function savePosition(
  lessonId: string,
  seconds: number,
  duration: number | undefined,
  options: { keepalive?: boolean } = {},
): Promise<PositionResult | null> {
  const token = getToken();
  if (!token) return null;
  const response = await fetch(`/api/courses/lessons/${lessonId}/position`, {
    method: 'POST',
    keepalive: options.keepalive,
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
    body: JSON.stringify({ seconds, ...(duration && Number.isFinite(duration) ? { duration } : {}) }),
  }).catch(() => null);
  if (!response?.ok) return null;
  return ((await response.json()) as DataAnswer<PositionResult>).data;
}
