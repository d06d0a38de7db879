import type { CertificateAuthority } from '@common/certificates';
import type { NginxConfig } from '@common/nginx-defaults';
import type { CertificateObtainedResponse, CertificateStatusResponse } from '@common/schemas/certificates';
import type { NginxConfigResponse, NginxHistoryResponse, NginxStatusResponse } from '@common/schemas/nginx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const nginxKeys = {
  config: ['nginx', 'config'] as const,
  status: ['nginx', 'status'] as const,
  history: ['nginx', 'history'] as const,
};

/**
 * What the panel makes of a save, a restore or a restart: `success`, and `error` when it failed.
 * The server answers a refusal with an error status, which api() throws; an answer with
 * `success: false` and `error` (the shape the panel was first given) is still read the same way.
 */
export interface NginxAnswer {
  success: boolean;
  error?: string;
  message?: string;
  /** A save on a self-signed trial certificate says so here. */
  warning?: string;
}

export function useNginxConfig() {
  return useQuery({
    queryKey: nginxKeys.config,
    queryFn: async ({ signal }) =>
      (await api<NginxConfigResponse>('/api/system/config', { auth: true, signal })).data,
  });
}

export function useNginxStatus() {
  return useQuery({
    queryKey: nginxKeys.status,
    queryFn: ({ signal }) => api<NginxStatusResponse>('/api/system/status', { auth: true, signal }),
    // The state of a process: never show a cached "Running" for one that has stopped.
    staleTime: 0,
  });
}

export function useNginxHistory() {
  return useQuery({
    queryKey: nginxKeys.history,
    queryFn: async ({ signal }) =>
      (
        await api<NginxHistoryResponse>('/api/system/nginx/history', {
          auth: true,
          signal,
        })
      ).data,
  });
}

/**
 * A save, a restore or a restart. The configuration is read again when nginx took the change
 * (the form follows it), the status and history either way: they may have changed even when it
 * failed.
 */
function useNginxChange<V>(call: (variables: V) => Promise<NginxAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async (answer) => {
      void queryClient.invalidateQueries({ queryKey: nginxKeys.status });
      void queryClient.invalidateQueries({ queryKey: nginxKeys.history });
      if (answer?.success) await queryClient.invalidateQueries({ queryKey: nginxKeys.config });
    },
  });
}

export const useSaveNginxConfig = () =>
  useNginxChange((config: NginxConfig) =>
    api<NginxAnswer>('/api/system/nginx/config', { method: 'POST', body: config, auth: true }),
  );

export const useRestartNginx = () =>
  useNginxChange(() => api<NginxAnswer>('/api/system/restart', { method: 'POST', auth: true }));

export const useRestoreNginxVersion = () =>
  useNginxChange((id: string) =>
    api<NginxAnswer>(`/api/system/nginx/history/${encodeURIComponent(id)}/restore`, {
      method: 'POST',
      auth: true,
    }),
  );

export const certificateKeys = { status: ['nginx', 'certificate'] as const };

/** The HTTPS card: the domain, the certificate nginx serves, the last try and when the next may start. */
export function useCertificate() {
  return useQuery({
    queryKey: certificateKeys.status,
    queryFn: async ({ signal }) =>
      (await api<CertificateStatusResponse>('/api/system/certificate', { auth: true, signal })).data,
  });
}

/**
 * "Get a certificate": ordered, installed and nginx reloaded in one call (seconds to a minute).
 * Everything the panel shows may have changed, even when it failed (the last try is recorded).
 */
export function useObtainCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CertificateRequestForm) =>
      api<CertificateObtainedResponse>('/api/system/certificate', {
        method: 'POST',
        body: request,
        auth: true,
      }),
    onSettled: () => {
      for (const queryKey of [certificateKeys.status, nginxKeys.config, nginxKeys.status, nginxKeys.history])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
}

/** What the card sends: the domain and the authority (with its address when it is another one). */
export interface CertificateRequestForm {
  domain: string;
  authority: CertificateAuthority;
  directoryUrl?: string;
  email?: string;
}
