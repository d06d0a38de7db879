import type { DataAnswer } from '@common/schemas/envelopes';
import type { OwnerPageInput, SiteAdminView, SiteSettings } from '@common/schemas/site';
import type { OwnerPageName } from '@common/site';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setSite } from '../site-data';

const siteKey = ['site', 'admin'] as const;

export function useSiteAdmin() {
  // Not refetched on focus: a refetch must never look like it undid what is being typed.
  return useQuery({
    queryKey: siteKey,
    queryFn: async () => (await api<DataAnswer<SiteAdminView>>('/api/admin/site', { auth: true })).data,
    refetchOnWindowFocus: false,
  });
}

/** After a save, the console's own header and titles show the new identity at once. */
function useSaved() {
  const queryClient = useQueryClient();
  return (answer: DataAnswer<SiteAdminView>) => {
    queryClient.setQueryData(siteKey, answer.data);
    setSite(answer.data.site);
  };
}

export function useSaveSite() {
  const onSuccess = useSaved();
  return useMutation({
    mutationFn: (body: SiteSettings) =>
      api<DataAnswer<SiteAdminView>>('/api/admin/site', { method: 'PUT', body, auth: true }),
    onSuccess,
  });
}

export function useSavePage() {
  const onSuccess = useSaved();
  return useMutation({
    mutationFn: ({ name, page }: { name: OwnerPageName; page: OwnerPageInput }) =>
      api<DataAnswer<SiteAdminView>>(`/api/admin/site/pages/${name}`, {
        method: 'PUT',
        body: page,
        auth: true,
      }),
    onSuccess,
  });
}

/** The live preview: the server renders with the very rules a page is saved with, and saves nothing. */
/** A page's text as visitors will read it: rendered by the server with the lessons' rules. */
export async function previewPage(markdown: string, signal?: AbortSignal): Promise<string> {
  return (
    await api<DataAnswer<{ html: string }>>('/api/admin/site/preview', {
      method: 'POST',
      body: { markdown },
      auth: true,
      signal,
    })
  ).data.html;
}
