import type { MailQueueMessage, MailRetryResponse, MailStatusResponse } from '@common/schemas/mail';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** Sends a waiting message now; the queue is read again at once and a moment later, to show how it went. */
export function useRetryMail() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: mailStatusKey });
  return useMutation({
    mutationFn: (message: MailQueueMessage) =>
      api<MailRetryResponse>(`/api/admin/mail/${encodeURIComponent(message.id)}/retry`, {
        method: 'POST',
        auth: true,
      }),
    onSettled: () => {
      setTimeout(() => void refresh(), 1500);
      void refresh();
    },
  });
}
