import type { AdminStats, AdminStatsResponse } from '@common/schemas/admin-users';
import type { DataAnswer } from '@common/schemas/envelopes';
import type {
  CourseFiguresListResponse,
  CourseFiguresResponse,
  FigureStep,
  MembersFigures,
  MoneyAnswer,
  SourceFigures,
  VisitFigures,
} from '@common/schemas/figures';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client';

/** The overview polls at this steady pace; it also refreshes on window focus and after user changes. */
export const STATS_REFRESH_MS = 10_000;

export const statsQueryKey = ['admin', 'stats'] as const;

export function useAdminStats() {
  const query = useQuery({
    queryKey: statsQueryKey,
    queryFn: async ({ signal }): Promise<AdminStats> =>
      (await api<AdminStatsResponse>('/api/admin/stats', { auth: true, signal })).data,
    refetchInterval: STATS_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });
  // React Query refetches when the tab becomes visible again; a window that was visible all along
  // (side by side with another) only gets a focus event, so that is listened to as well.
  const { refetch } = query;
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);
  return query;
}

/** A period of the owner's figures, as the Dashboard's picker chose it. */
export interface FiguresPeriod {
  from: string;
  to: string;
  step: FigureStep;
}

const figuresUrl = (what: string, period: FiguresPeriod) =>
  `/api/admin/figures/${what}?${new URLSearchParams({ ...period }).toString()}`;

function useFigure<T>(what: string, period: FiguresPeriod | null, enabled = true) {
  return useQuery({
    queryKey: ['admin', 'figures', what, period],
    queryFn: async ({ signal }): Promise<T> =>
      (await api<DataAnswer<T>>(figuresUrl(what, period!), { auth: true, signal })).data,
    enabled: enabled && period !== null,
    placeholderData: keepPreviousData,
  });
}

export const useMembersFigures = (period: FiguresPeriod) => useFigure<MembersFigures>('members', period);
export const useMoneyFigures = (period: FiguresPeriod) => useFigure<MoneyAnswer>('money', period);
export const useSourceFigures = (period: FiguresPeriod) => useFigure<SourceFigures[]>('sources', period);
export const useVisitFigures = (period: FiguresPeriod) => useFigure<VisitFigures>('visits', period);

export function useCourseFiguresList() {
  return useQuery({
    queryKey: ['admin', 'figures', 'courses'],
    queryFn: async ({ signal }) =>
      (await api<CourseFiguresListResponse>('/api/admin/figures/courses', { auth: true, signal })).data,
  });
}

export function useCourseFigures(courseId: string | null) {
  return useQuery({
    queryKey: ['admin', 'figures', 'course', courseId],
    queryFn: async ({ signal }) =>
      (await api<CourseFiguresResponse>(`/api/admin/figures/courses/${courseId}`, { auth: true, signal }))
        .data,
    enabled: courseId !== null,
  });
}
