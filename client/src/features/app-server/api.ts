import type {
  AppServerConfigInput,
  AppServerConfigResponse,
  AppServerConfigView,
  AppServerRestartResponse,
  AppServerSaveResponse,
  AppServerStatus,
  AppServerStatusResponse,
} from '@common/schemas/app-server';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export async function fetchAppServerStatus(): Promise<AppServerStatus> {
  try {
    return (await api<AppServerStatusResponse>('/api/admin/nodejs/status', { auth: true })).status;
  } catch (error) {
    // A failed status load is only logged; the last figures stay on screen.
    console.error('Failed to load the application-server status', error);
    throw error;
  }
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

/** Saves the settings; the cached settings become what the server answers. */
export function useSaveAppServerConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppServerConfigInput) =>
      api<AppServerSaveResponse>('/api/admin/nodejs/config', { method: 'POST', body, auth: true }),
    onSuccess: (answer) => queryClient.setQueryData(appServerKeys.config, answer.config),
  });
}

/** True when the server moved off the port this page talks to: the page must follow it there. */
export function movesThisPage(answer: AppServerRestartResponse): boolean {
  const here = window.location.port || (window.location.protocol === 'https:' ? '443' : '80');
  return answer.port !== answer.previousPort && here === String(answer.previousPort);
}

/**
 * Restarts the server. When this page carries on with it (same port, same session), the restart
 * ends once the new server process answers: its settings are read again (requests made now wait
 * for it instead of failing) and its status is refreshed. `fresh` is those settings, or null when
 * the page is about to leave (a new port, or a new session secret that signs everyone out).
 */
export function useRestartAppServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ signsEveryoneOut }: { signsEveryoneOut: boolean }) => {
      const answer = await api<AppServerRestartResponse>('/api/admin/nodejs/restart', {
        method: 'POST',
        auth: true,
      });
      if (signsEveryoneOut || movesThisPage(answer)) return { answer, fresh: null };
      return { answer, fresh: await fetchAppServerConfig() };
    },
    onSuccess: async ({ fresh }) => {
      if (!fresh) return;
      queryClient.setQueryData(appServerKeys.config, fresh);
      await queryClient.invalidateQueries({ queryKey: appServerKeys.status });
    },
  });
}
