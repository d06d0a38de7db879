import { PUBLIC_PAGES } from '@common/public-pages';
import type { OwnerPageName } from '@common/site';
import type { ReactNode } from 'react';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { Card } from '../../components/ui/card';
import { PageText, PageWaiting, useOwnerPage } from './owner-page';

/** About, Terms, Privacy, Contact: the owner's title and text in a card. */
export function OwnerPageLayout({
  name,
  footer,
}: {
  name: Exclude<OwnerPageName, 'home'>;
  footer?: ReactNode;
}) {
  const { page, failed } = useOwnerPage(name);
  usePageMeta(page ? { title: page.title, description: page.description } : PUBLIC_PAGES[name]);
  return (
    <PageShell>
      <Card className="w-full max-w-2xl">
        {page ? (
          <>
            <h1 className="font-display text-3xl text-white">{page.title}</h1>
            <PageText html={page.html} className="mt-4 text-sm" />
          </>
        ) : (
          <>
            <h1 className="font-display text-3xl text-white">{PUBLIC_PAGES[name].title}</h1>
            <div className="mt-4">
              <PageWaiting failed={failed} />
            </div>
          </>
        )}
        {footer}
      </Card>
    </PageShell>
  );
}
