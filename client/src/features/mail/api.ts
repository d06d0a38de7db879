/**
 * The mail feature's calls: every signed-in write of a screen is a mutation here, so the file is
 * long. Seams: the one-off mail queue (useMailStatus, useRetryMail); announcements (list, count,
 * preview, test, queue, cancel); the sending pace and stopped addresses; the welcome mails; the
 * sender and DKIM key; the member's own preferences (on /account).
 */
import type { MailQueueMessage, MailRetryResponse, MailStatusResponse } from '@common/schemas/mail';
import type {
  AnnouncementCountResponse,
  AnnouncementInput,
  AnnouncementListResponse,
  AnnouncementResponse,
  BulkSettings,
  BulkSettingsResponse,
  Draft,
  MailIdentityResponse,
  MailMembersDoneResponse,
  MailPreferences,
  PreferencesResponse,
  PreviewResponse,
  Segment,
  StoppedListResponse,
  WelcomeResponse,
  WelcomeSettings,
} from '@common/schemas/mail-members';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMarkdownPreview } from '../../components/console/markdown-field';
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

// Mail to members: announcements, the sending settings, stopped addresses, members' preferences.

const members = '/api/admin/mail';
export const announcementsKey = ['admin', 'mail', 'announcements'] as const;
const bulkSettingsKey = ['admin', 'mail', 'settings'] as const;
const stopsKey = ['admin', 'mail', 'stops'] as const;
const preferencesKey = ['mail', 'preferences'] as const;
/** While an announcement goes out, its progress is read this often. */
const SENDING_REFRESH_MS = 2_000;

export function useAnnouncements() {
  return useQuery({
    queryKey: announcementsKey,
    queryFn: async ({ signal }) =>
      (await api<AnnouncementListResponse>(`${members}/announcements`, { auth: true, signal })).data,
    refetchInterval: (query) =>
      query.state.data?.some((a) => a.state === 'sending' || a.state === 'scheduled')
        ? SENDING_REFRESH_MS
        : MAIL_REFRESH_MS,
  });
}

/** How many members a segment holds now (and its name in words); nothing is sent. */
export function useRecipientCount(segment: Segment | null) {
  return useQuery({
    queryKey: ['admin', 'mail', 'count', segment],
    enabled: segment !== null,
    queryFn: async ({ signal }) =>
      (
        await api<AnnouncementCountResponse>(`${members}/announcements/count`, {
          method: 'POST',
          body: { segment },
          auth: true,
          signal,
        })
      ).data,
  });
}

/** The mail as members will read it, from the server's own renderer, a moment after typing stops. */
export function useAnnouncementPreview(draft: Draft) {
  return useMarkdownPreview(
    draft.markdown,
    async (markdown, signal) =>
      (
        await api<PreviewResponse>(`${members}/announcements/preview`, {
          method: 'POST',
          body: { subject: draft.subject || 'Preview', markdown },
          auth: true,
          signal,
        })
      ).data.html,
    draft.subject,
  );
}

export function useSendTest() {
  return useMutation({
    mutationFn: (draft: Draft) =>
      api<MailMembersDoneResponse>(`${members}/announcements/test`, {
        method: 'POST',
        body: draft,
        auth: true,
      }),
  });
}

export function useQueueAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AnnouncementInput) =>
      (
        await api<AnnouncementResponse>(`${members}/announcements`, {
          method: 'POST',
          body: input,
          auth: true,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementsKey }),
  });
}

export function useCancelAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await api<AnnouncementResponse>(`${members}/announcements/${id}/cancel`, {
          method: 'POST',
          auth: true,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementsKey }),
  });
}

export function useBulkSettings() {
  return useQuery({
    queryKey: bulkSettingsKey,
    queryFn: async ({ signal }) =>
      (await api<BulkSettingsResponse>(`${members}/settings`, { auth: true, signal })).data,
  });
}

export function useSaveBulkSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: BulkSettings) =>
      (await api<BulkSettingsResponse>(`${members}/settings`, { method: 'PUT', body: settings, auth: true }))
        .data,
    onSuccess: (saved) => queryClient.setQueryData(bulkSettingsKey, saved),
  });
}

export function useStoppedAddresses() {
  return useQuery({
    queryKey: stopsKey,
    queryFn: async ({ signal }) =>
      (await api<StoppedListResponse>(`${members}/stops`, { auth: true, signal })).data,
    refetchInterval: MAIL_REFRESH_MS,
  });
}

export function useMarkComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<MailMembersDoneResponse>(`${members}/stops`, { method: 'POST', body: { email }, auth: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stopsKey }),
  });
}

/** The signed-in member's own choices (on /account). */
export function useMailPreferences() {
  return useQuery({
    queryKey: preferencesKey,
    queryFn: async ({ signal }) =>
      (await api<PreferencesResponse>('/api/mail/preferences', { auth: true, signal })).data,
  });
}

export function useSaveMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (preferences: MailPreferences) =>
      (
        await api<PreferencesResponse>('/api/mail/preferences', {
          method: 'PUT',
          body: preferences,
          auth: true,
        })
      ).data,
    // The box shows the choice at once; a refusal puts back what the server holds.
    onMutate: async (preferences) => {
      // A read under way would answer the old choice over this one.
      await queryClient.cancelQueries({ queryKey: preferencesKey });
      queryClient.setQueryData(preferencesKey, preferences);
    },
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
    onError: () => queryClient.invalidateQueries({ queryKey: preferencesKey }),
  });
}

const welcomeKey = ['admin', 'mail', 'welcome'] as const;

export function useWelcome() {
  return useQuery({
    queryKey: welcomeKey,
    queryFn: async ({ signal }) =>
      (await api<WelcomeResponse>(`${members}/welcome`, { auth: true, signal })).data,
  });
}

export function useSaveWelcome() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (welcome: WelcomeSettings) =>
      (await api<WelcomeResponse>(`${members}/welcome`, { method: 'PUT', body: welcome, auth: true })).data,
    onSuccess: (saved) => queryClient.setQueryData(welcomeKey, saved),
  });
}

export function useSendWelcomeTest() {
  return useMutation({
    mutationFn: (mail: { tier: 'free' | 'paid'; subject: string; markdown: string }) =>
      api<MailMembersDoneResponse>(`${members}/welcome/test`, { method: 'POST', body: mail, auth: true }),
  });
}

const identityKey = ['admin', 'mail', 'identity'] as const;

export function useMailIdentity() {
  return useQuery({
    queryKey: identityKey,
    queryFn: async ({ signal }) =>
      (await api<MailIdentityResponse>(`${members}/identity`, { auth: true, signal })).data,
  });
}

export function useSaveFrom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (from: string) =>
      (await api<MailIdentityResponse>(`${members}/identity`, { method: 'PUT', body: { from }, auth: true }))
        .data,
    onSuccess: (saved) => queryClient.setQueryData(identityKey, saved),
  });
}

export function useMakeDkimKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api<MailIdentityResponse>(`${members}/identity/dkim`, { method: 'POST', auth: true })).data,
    onSuccess: (saved) => queryClient.setQueryData(identityKey, saved),
  });
}
