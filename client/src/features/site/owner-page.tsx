import type { OwnerPageName, OwnerPageView } from '@common/site';
import { type ReactNode, useEffect, useState } from 'react';
import { fetchOwnerPage } from './api';
import { arrivedPage } from './site-data';
import '../courses/lesson-body.css';

/**
 * An owner page's words: inlined in the page when the visitor arrived on it, fetched when they
 * came by a link. The server answers the helpful default for a page the owner left empty.
 */
export function useOwnerPage(name: OwnerPageName): { page: OwnerPageView | null; failed: boolean } {
  const [page, setPage] = useState(() => arrivedPage(name));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (page?.name === name) return;
    const abort = new AbortController();
    fetchOwnerPage(name, abort.signal).then(setPage, () => {
      if (!abort.signal.aborted) setFailed(true);
    });
    return () => abort.abort();
  }, [name, page]);
  return { page: page?.name === name ? page : null, failed };
}

/** The page's text: safe HTML made by the server from the owner's Markdown (the lessons' rules). */
export function PageText({ html, className = '' }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (features/courses/markdown.ts)
  return <div className={`lesson-body ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** What shows while the words are on their way, or when they could not be fetched. */
export function PageWaiting({ failed, children }: { failed: boolean; children?: ReactNode }) {
  return (
    <p role={failed ? 'alert' : 'status'} className="text-sm text-stone-300">
      {failed ? 'This page could not be loaded. Check your connection and reload the page.' : 'Loading…'}
      {children}
    </p>
  );
}
