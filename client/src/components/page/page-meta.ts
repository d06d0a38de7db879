import { documentTitle, type PageMeta } from '@common/public-pages';
import { withSiteName } from '@common/site';
import { useEffect } from 'react';
import { useSiteIdentity } from './site-context';

/**
 * The page's title and meta description (read by search engines and shown in their results).
 * The HTML the server sends already carries the right ones for each public page (see
 * common/public-pages.ts); this keeps them right as the visitor moves from page to page. The
 * site's name goes where the page's words have its mark.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  const { name } = useSiteIdentity();
  useEffect(() => {
    document.title = documentTitle(title, name);
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = withSiteName(description, name);
  }, [title, description, name]);
}
