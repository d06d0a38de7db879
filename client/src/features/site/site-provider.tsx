import { SITE_DATA_ID } from '@common/site';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { SiteContext } from '../../components/page/site-context';
import { fetchSite } from './api';
import { setSite, useSite } from './site-data';

/** Hands the site's identity to the page kit (header, footer, titles) of every page. */
export function SiteProvider({ children }: { children: ReactNode }) {
  const site = useSite();
  useEffect(() => {
    // The development server inlines nothing: the identity is asked for once.
    if (!document.getElementById(SITE_DATA_ID)) fetchSite().then(setSite, () => undefined);
  }, []);
  return <SiteContext.Provider value={site}>{children}</SiteContext.Provider>;
}
