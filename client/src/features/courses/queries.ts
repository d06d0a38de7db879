import type { PreviewViewer } from '@common/courses';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { completeLesson, fetchCourse, fetchHome, fetchLesson } from './api';

/** react-query keys of the member's side of courses (the console's are in admin/api.ts). */
export const courseKeys = {
  all: ['courses'] as const,
  home: ['courses', 'home'] as const,
  course: (slug: string, preview: PreviewViewer | null) => ['courses', 'course', slug, preview] as const,
  lesson: (slug: string, lessonId: string, preview: PreviewViewer | null) =>
    ['courses', 'lesson', slug, lessonId, preview] as const,
};

/** Links to lesson files last 20 minutes: the lesson is asked again well before, for fresh ones. */
const FRESH_LINKS_EVERY_MS = 10 * 60 * 1000;

export function useLesson(slug: string, lessonId: string, preview: PreviewViewer | null) {
  return useQuery({
    queryKey: courseKeys.lesson(slug, lessonId, preview),
    queryFn: ({ signal }) => fetchLesson(slug, lessonId, preview, signal),
    refetchInterval: FRESH_LINKS_EVERY_MS,
    refetchOnWindowFocus: false,
  });
}

export function useCourseOutline(slug: string, preview: PreviewViewer | null) {
  return useQuery({
    queryKey: courseKeys.course(slug, preview),
    queryFn: ({ signal }) => fetchCourse(slug, preview, signal),
  });
}

export function useMemberHome() {
  return useQuery({ queryKey: courseKeys.home, queryFn: ({ signal }) => fetchHome(signal) });
}

export function useCompleteLesson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lessonId: string) => completeLesson(lessonId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: courseKeys.all }),
  });
}
