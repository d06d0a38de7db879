import { documentTitle, type PageMeta } from '@common/public-pages';
import { useEffect } from 'react';

/**
 * The page's title and meta description (read by search engines and shown in their results).
 * The HTML the server sends already carries the right ones for each public page (see
 * common/public-pages.ts); this keeps them right as the visitor moves from page to page.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  useEffect(() => {
    document.title = documentTitle(title);
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description]);
}
