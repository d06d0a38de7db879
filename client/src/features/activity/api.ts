import type { ActivityKind, ActivityListResponse } from '@common/schemas/activity';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download-file';

export interface ActivityFilters {
  actor: string;
  kind: ActivityKind | '';
  from: string;
  to: string;
}

function filterQuery(filters: ActivityFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query;
}

export function useActivity(filters: ActivityFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['admin', 'activity', filters, page, pageSize],
    queryFn: ({ signal }) => {
      const query = filterQuery(filters);
      query.set('page', String(page));
      query.set('pageSize', String(pageSize));
      return api<ActivityListResponse>(`/api/admin/activity?${query}`, { auth: true, signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** The filtered log as a CSV file download. */
export function downloadActivityCsv(filters: ActivityFilters): Promise<void> {
  return downloadFile(`/api/admin/activity/export.csv?${filterQuery(filters)}`, 'activity.csv');
}
