import type { ActivityKind, ActivityListResponse } from '@common/schemas/activity';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { getToken } from '../../lib/auth-token';

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
export async function downloadActivityCsv(filters: ActivityFilters): Promise<void> {
  const token = getToken();
  const response = await fetch(`/api/admin/activity/export.csv?${filterQuery(filters)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(body.message || `HTTP ${response.status}`);
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'activity.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
