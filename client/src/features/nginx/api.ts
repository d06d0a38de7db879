import type { NginxConfig, NginxHistory, NginxStatusResponse } from '@common/schemas/nginx';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const nginxKeys = {
  config: ['nginx', 'config'] as const,
  status: ['nginx', 'status'] as const,
  history: ['nginx', 'history'] as const,
};

/** What a save, a restore or a restart answers (SPEC: success, error). */
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
      (await api<{ success: boolean; data: NginxConfig }>('/api/system/config', { auth: true, signal })).data,
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
        await api<{ success: boolean; data: NginxHistory }>('/api/system/nginx/history', {
          auth: true,
          signal,
        })
      ).data,
  });
}

export function saveNginxConfig(config: NginxConfig) {
  return api<NginxAnswer>('/api/system/nginx/config', { method: 'POST', body: config, auth: true });
}

export function restartNginx() {
  return api<NginxAnswer>('/api/system/restart', { method: 'POST', auth: true });
}

export function restoreNginxVersion(id: string) {
  return api<NginxAnswer>(`/api/system/nginx/history/${encodeURIComponent(id)}/restore`, {
    method: 'POST',
    auth: true,
  });
}
