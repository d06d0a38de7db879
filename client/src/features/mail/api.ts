import type { MailRetryResponse, MailStatusResponse } from '@common/schemas/mail';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const MAIL_REFRESH_MS = 10_000;
export const mailStatusKey = ['admin', 'mail'] as const;

/** The mail queue's state: counts, the last error in plain words, the messages (never their text). */
export function useMailStatus() {
  return useQuery({
    queryKey: mailStatusKey,
    queryFn: async ({ signal }) =>
      (await api<MailStatusResponse>('/api/admin/mail', { auth: true, signal })).data,
    refetchInterval: MAIL_REFRESH_MS,
  });
}

export function retryMail(id: string) {
  return api<MailRetryResponse>(`/api/admin/mail/${encodeURIComponent(id)}/retry`, {
    method: 'POST',
    auth: true,
  });
}
