import { SITE_DEFAULTS, type SitePublic } from '@common/site';
import { createContext, useContext } from 'react';

/**
 * The site's identity for the page kit (header, footer, titles). Provided by the app's shell
 * from features/site (the kit imports no feature); a fresh install's identity until then.
 */
export const SiteContext = createContext<SitePublic>({ ...SITE_DEFAULTS, logoUrl: null, hasIcon: false });

export function useSiteIdentity(): SitePublic {
  return useContext(SiteContext);
}
