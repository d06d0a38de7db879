import { useCallback, useState } from 'react';
import { useUnsavedChanges } from '../../../components/console/leave-guard';
import { useSiteAdmin } from './api';
import { PageEditor } from './page-editor';
import { SiteIdentityForm } from './site-identity-form';

/**
 * The console's Site section: the site's name, tagline, logo, icon, accent colour, contact and
 * social links, and the pages the owner writes (home, About, Terms, Privacy, Contact). A save
 * reaches every page and every server process within a second.
 */
export function SitePanel() {
  const site = useSiteAdmin();
  // The two forms' unsaved changes, named together for the one leave guard.
  const [unsaved, setUnsaved] = useState<{ identity: string | null; page: string | null }>({
    identity: null,
    page: null,
  });
  const onIdentity = useCallback((identity: string | null) => setUnsaved((u) => ({ ...u, identity })), []);
  const onPage = useCallback((page: string | null) => setUnsaved((u) => ({ ...u, page })), []);
  useUnsavedChanges([unsaved.identity, unsaved.page].filter(Boolean).join(' and ') || null);
  return (
    <section aria-labelledby="site-heading" className="space-y-6">
      <header>
        <h1 id="site-heading" className="text-2xl font-semibold text-white sm:text-3xl">
          Site
        </h1>
        <p className="mt-2 text-stone-300">
          Make it yours: the name, words and pictures every page, link preview and e-mail shows.
        </p>
      </header>
      {site.isError ? (
        <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/15 p-4 text-red-200">
          Failed to load the site settings: {site.error.message}
        </p>
      ) : !site.data ? (
        <p className="text-stone-400">Loading settings…</p>
      ) : (
        <>
          <SiteIdentityForm view={site.data} onUnsaved={onIdentity} />
          <PageEditor view={site.data} onUnsaved={onPage} />
        </>
      )}
    </section>
  );
}
