import type {
  AccountData,
  AccountDoneResponse,
  AccountNameResponse,
  AccountResponse,
  SessionsEndedResponse,
} from '@common/schemas/account';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download-file';

const accountKey = ['account'] as const;

export function useAccount() {
  return useQuery({
    queryKey: accountKey,
    queryFn: async ({ signal }): Promise<AccountData> =>
      (await api<AccountResponse>('/api/account', { auth: true, signal })).data,
  });
}

/** A change to the account, after which the account is read again (name, pending e-mail, sessions). */
function useAccountChange<B, R>(method: 'POST' | 'PUT' | 'DELETE', path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => api<R>(path, { method, body, auth: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey }),
  });
}

export const useSaveName = () =>
  useAccountChange<{ name: string }, AccountNameResponse>('PUT', '/api/account/name');
export const useChangeEmail = () =>
  useAccountChange<{ email: string; password: string }, AccountDoneResponse>('POST', '/api/account/email');
/** Ends a pending e-mail change: the link sent to the new address stops working. */
export const useCancelEmailChange = () =>
  useAccountChange<void, AccountDoneResponse>('DELETE', '/api/account/email-change');
export const useChangePassword = () =>
  useAccountChange<{ currentPassword: string; newPassword: string }, SessionsEndedResponse>(
    'PUT',
    '/api/account/password',
  );

/**
 * These two end this session as well: nothing cached stays true, so the caller forgets the token
 * and the cache and leaves (useForgetSession).
 */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: () =>
      api<SessionsEndedResponse>('/api/account/sign-out-everywhere', { method: 'POST', auth: true }),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: { password: string; confirmation: string }) =>
      api<AccountDoneResponse>('/api/account/delete', { method: 'POST', body, auth: true }),
  });
}

/** Saves everything the site keeps about the member as a JSON file. */
export function downloadMyData(): Promise<void> {
  return downloadFile('/api/account/export', 'my-data.json');
}
