import type {
  CollectionResponse,
  ConnectionTestResponse,
  DatabaseConfigBody,
  DatabaseConfigResponse,
  DatabaseDetailResponse,
  DatabaseStatsResponse,
  DatabaseStatusResponse,
  DatabasesResponse,
  SaveConfigResponse,
} from '@common/schemas/database';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

const BASE = '/api/admin/mongodb';
const enc = encodeURIComponent;

export const databaseKeys = {
  config: ['database', 'config'] as const,
  status: ['database', 'status'] as const,
  databases: ['database', 'databases'] as const,
  stats: (name: string) => ['database', 'stats', name] as const,
  details: (name: string) => ['database', 'details', name] as const,
  collection: (db: string, name: string) => ['database', 'collection', db, name] as const,
};

/** The form as the panel edits it: the password is only ever typed, never loaded. */
export type DatabaseForm = Omit<DatabaseConfigBody, 'port' | 'poolSize'> & { port: string; poolSize: string };

const body = (form: DatabaseForm) => ({ ...form, port: Number(form.port), poolSize: Number(form.poolSize) });

export const fetchConfig = () => api<DatabaseConfigResponse>(`${BASE}/config`, { auth: true });

export const fetchStatus = () => api<DatabaseStatusResponse>(`${BASE}/status`, { auth: true });

/** Connects with the form's values; saves nothing, so nothing cached changes. */
export function useTestConnection() {
  return useMutation({
    mutationFn: (form: DatabaseForm) =>
      api<ConnectionTestResponse>(`${BASE}/test`, { method: 'POST', body: body(form), auth: true }),
  });
}

/**
 * Saves the settings and moves the site; the server then restarts on the new store. What that
 * changes is read again by the panel once the restarted server answers (asking sooner would only
 * meet the restart).
 */
export function useSaveDatabaseConfig() {
  return useMutation({
    mutationFn: (form: DatabaseForm) =>
      api<SaveConfigResponse>(`${BASE}/config`, { method: 'POST', body: body(form), auth: true }),
  });
}

export function useDatabases() {
  return useQuery({
    queryKey: databaseKeys.databases,
    queryFn: async () => (await api<DatabasesResponse>(`${BASE}/databases`, { auth: true })).databases,
  });
}

export function useDatabaseStats(name: string) {
  return useQuery({
    queryKey: databaseKeys.stats(name),
    queryFn: async () =>
      (await api<DatabaseStatsResponse>(`${BASE}/database/${enc(name)}/stats`, { auth: true })).stats,
  });
}

export function useDatabaseDetails(name: string) {
  return useQuery({
    queryKey: databaseKeys.details(name),
    queryFn: async () =>
      (await api<DatabaseDetailResponse>(`${BASE}/database/${enc(name)}/details`, { auth: true })).database,
    retry: (count, error) => count < 2 && (error as { status?: number }).status !== 404,
  });
}

/** The explorer shows the first 20 documents of a collection. */
export const EXPLORER_DOCUMENTS = 20;

export function useCollectionDocuments(db: string, name: string | null) {
  return useQuery({
    queryKey: databaseKeys.collection(db, name ?? ''),
    queryFn: async () =>
      (
        await api<CollectionResponse>(
          `${BASE}/database/${enc(db)}/collection/${enc(name ?? '')}?limit=${EXPLORER_DOCUMENTS}`,
          { auth: true },
        )
      ).collection,
    enabled: name !== null,
  });
}
