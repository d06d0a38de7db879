import type { AdminStats, AdminStatsResponse } from '@common/schemas/admin-users';
import { useQuery } from '@tanstack/react-query';
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
