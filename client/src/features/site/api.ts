import type { DataAnswer } from '@common/schemas/envelopes';
import type { OwnerPageName, OwnerPageView, SitePublic } from '@common/site';
import { api } from '../../lib/api-client';

/**
 * The site's public calls, as plain functions: the public pages never load react-query. Every
 * page arrives with the site and its own owner page inlined; these serve the pages reached by a
 * link, and the development server (which inlines nothing).
 */
export async function fetchSite(): Promise<SitePublic> {
  return (await api<DataAnswer<SitePublic>>('/api/site')).data;
}

export async function fetchOwnerPage(name: OwnerPageName, signal?: AbortSignal): Promise<OwnerPageView> {
  return (await api<DataAnswer<OwnerPageView>>(`/api/site/pages/${name}`, { signal })).data;
}
