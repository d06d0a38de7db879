import type {
  AppServerConfigInput,
  AppServerConfigResponse,
  AppServerConfigView,
  AppServerRestartResponse,
  AppServerSaveResponse,
  AppServerStatus,
  AppServerStatusResponse,
} from '@common/schemas/app-server';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** The status refreshes every 10 seconds. */
export const STATUS_POLL_MS = 10_000;

export const appServerKeys = {
  config: ['nodejs', 'config'] as const,
  status: ['nodejs', 'status'] as const,
};

export async function fetchAppServerConfig(): Promise<AppServerConfigView> {
  return (await api<AppServerConfigResponse>('/api/admin/nodejs/config', { auth: true })).config;
}

export function saveAppServerConfig(body: AppServerConfigInput) {
  return api<AppServerSaveResponse>('/api/admin/nodejs/config', { method: 'POST', body, auth: true });
}

export async function fetchAppServerStatus(): Promise<AppServerStatus> {
  try {
    return (await api<AppServerStatusResponse>('/api/admin/nodejs/status', { auth: true })).status;
  } catch (error) {
    // A failed status load is only logged; the last figures stay on screen.
    console.error('Failed to load the application-server status', error);
    throw error;
  }
}

export function restartAppServer() {
  return api<AppServerRestartResponse>('/api/admin/nodejs/restart', { method: 'POST', auth: true });
}

export function useAppServerConfig() {
  // Not refetched on focus: a refetch must never look like it undid what is being typed.
  return useQuery({
    queryKey: appServerKeys.config,
    queryFn: fetchAppServerConfig,
    refetchOnWindowFocus: false,
  });
}

export function useAppServerStatus() {
  return useQuery({
    queryKey: appServerKeys.status,
    queryFn: fetchAppServerStatus,
    refetchInterval: STATUS_POLL_MS,
    retry: false,
  });
}
