import { useQuery } from '@tanstack/react-query';
import type { AdminStats, AdminStatsResponse } from '../../../../common/schemas/admin-users';
import { api } from '../../lib/api-client';

/** The overview polls at this steady pace; it also refreshes on window focus and after user changes. */
export const STATS_REFRESH_MS = 10_000;

export const statsQueryKey = ['admin', 'stats'] as const;

export function useAdminStats() {
  return useQuery({
    queryKey: statsQueryKey,
    queryFn: async ({ signal }): Promise<AdminStats> =>
      (await api<AdminStatsResponse>('/api/admin/stats', { auth: true, signal })).data,
    refetchInterval: STATS_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });
}
