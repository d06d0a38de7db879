import type {
  NginxConfig,
  NginxConfigResponse,
  NginxHistoryResponse,
  NginxRestartResponse,
  NginxSaveResponse,
  NginxStatusResponse,
} from '@common/schemas/nginx';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const nginxKeys = {
  config: ['nginx', 'config'] as const,
  status: ['nginx', 'status'] as const,
  history: ['nginx', 'history'] as const,
};

/**
 * What the panel makes of a save, a restore or a restart (SPEC: success, error). The server
 * answers a refusal with an error status, which api() throws; `error` is kept for the spec's shape.
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

export function saveNginxConfig(config: NginxConfig) {
  return api<NginxSaveResponse>('/api/system/nginx/config', { method: 'POST', body: config, auth: true });
}

export function restartNginx() {
  return api<NginxRestartResponse>('/api/system/restart', { method: 'POST', auth: true });
}

export function restoreNginxVersion(id: string) {
  return api<NginxSaveResponse>(`/api/system/nginx/history/${encodeURIComponent(id)}/restore`, {
    method: 'POST',
    auth: true,
  });
}
