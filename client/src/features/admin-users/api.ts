import type {
  CreateUserBody,
  DeleteUserResponse,
  EndUserSessionsResponse,
  SortOrder,
  UpdateUserBody,
  UserListResponse,
  UserResponse,
  UserSortField,
} from '@common/schemas/admin-users';
import type { BillingFilter } from '@common/schemas/payments';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download-file';
import { statsQueryKey } from '../overview/api';

export interface UserListParams {
  page: number;
  pageSize: number;
  search: string;
  sortBy: UserSortField;
  sortOrder: SortOrder;
  /** Paying members, failing payments, paid by hand (the payments feature's filter). */
  billing?: BillingFilter;
}

const usersKey = ['admin', 'users'] as const;

function listQuery({
  search,
  sortBy,
  sortOrder,
  billing,
}: Omit<UserListParams, 'page' | 'pageSize'>): URLSearchParams {
  const query = new URLSearchParams({ sortBy, sortOrder });
  if (search) query.set('search', search);
  if (billing) query.set('billing', billing);
  return query;
}

export function useUserList(params: UserListParams) {
  return useQuery({
    queryKey: [...usersKey, params],
    queryFn: ({ signal }) => {
      const query = listQuery(params);
      query.set('page', String(params.page));
      query.set('pageSize', String(params.pageSize));
      return api<UserListResponse>(`/api/admin/users?${query}`, { auth: true, signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** After any change to users, the list and the overview's counts are fetched again at once. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: usersKey }),
      queryClient.invalidateQueries({ queryKey: statsQueryKey }),
    ]);
}

export function useCreateUser() {
  const onSuccess = useRefreshAfterChange();
  return useMutation({
    mutationFn: (body: CreateUserBody) =>
      api<UserResponse>('/api/admin/users', { method: 'POST', body, auth: true }),
    onSuccess,
  });
}

export function useUpdateUser() {
  const onSuccess = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateUserBody }) =>
      api<UserResponse>(`/api/admin/users/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: changes,
        auth: true,
      }),
    onSuccess,
  });
}

export function useDeleteUser() {
  const onSuccess = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: string) =>
      api<DeleteUserResponse>(`/api/admin/users/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        auth: true,
      }),
    onSuccess,
  });
}

/** Downloads the searched and sorted list (every page) as a CSV file. */
export function downloadUsersCsv(params: Omit<UserListParams, 'page' | 'pageSize'>): Promise<void> {
  return downloadFile(`/api/admin/users/export.csv?${listQuery(params)}`, 'users.csv');
}

/** Signs a user out of every browser and device (their sessions end on the server). */
export function useEndSessions() {
  return useMutation({
    mutationFn: (id: string) =>
      api<EndUserSessionsResponse>(`/api/admin/users/${encodeURIComponent(id)}/sessions`, {
        method: 'DELETE',
        auth: true,
      }),
  });
}
