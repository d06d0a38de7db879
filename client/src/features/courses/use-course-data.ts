import type { PreviewViewer } from '@common/courses';
import type { CourseCard, CourseDetail } from '@common/schemas/course-views';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { useHydrated } from '../../lib/use-hydrated';
import { useStoredToken } from '../../lib/use-stored-token';
import { fetchCourse, fetchCourses } from './api';
import { useInjectedPageData } from './page-data';

export interface Loaded<T> {
  data: T | null;
  /** A signed-in person's own view is on its way (the visitor's one may show meanwhile). */
  pending: boolean;
  error: string | null;
  notFound: boolean;
  /** Reads the signed-in person's view again (after a payment, say); what shows stays until it comes. */
  reload: () => void;
}

/**
 * Data of a public course page: the visitor's view the page arrived with, replaced by the
 * signed-in person's own view (their progress, their locks) as soon as it is fetched. Fetched
 * only after the page was taken over, so the pre-rendered markup is what React first draws.
 */
function useLoaded<T>(
  injected: T | null | undefined,
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
): Loaded<T> {
  const hydrated = useHydrated();
  const token = useStoredToken();
  const [fetched, setFetched] = useState<{
    key: string;
    /** Which reading this is: a reload asks again for the same key. */
    round: number;
    data: T | null;
    error: string | null;
    notFound: boolean;
  } | null>(null);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const needsFetch = hydrated && (token !== null || injected === undefined);
  // A new function at every render; what it loads is said by `key`.
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (!needsFetch) return;
    const controller = new AbortController();
    loader.current(controller.signal).then(
      (data) => setFetched({ key, round, data, error: null, notFound: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const notFound = error instanceof ApiError && error.status === 404;
        setFetched({
          key,
          round,
          data: null,
          error: notFound ? null : (error as Error).message,
          notFound,
        });
      },
    );
    return () => controller.abort();
  }, [needsFetch, key, round]);
  const mine = fetched?.key === key ? fetched : null;
  if (mine) return { data: mine.data, pending: false, error: mine.error, notFound: mine.notFound, reload };
  return {
    data: injected ?? null,
    pending: needsFetch,
    error: null,
    notFound: injected === null && !needsFetch,
    reload,
  };
}

export function useCatalogue(): Loaded<CourseCard[]> {
  const page = useInjectedPageData();
  const injected = page?.kind === 'catalogue' ? page.courses : undefined;
  return useLoaded(injected, (signal) => fetchCourses(signal), 'catalogue');
}

export function useCourse(slug: string, preview: PreviewViewer | null): Loaded<CourseDetail> {
  const page = useInjectedPageData();
  const injected =
    page?.kind === 'course' && page.slug === slug.toLowerCase() && !preview ? page.course : undefined;
  return useLoaded(injected, (signal) => fetchCourse(slug, preview, signal), `${slug}:${preview ?? ''}`);
}
