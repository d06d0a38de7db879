import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppShell } from './app/app-shell';

/**
 * Used by the build only (scripts/vite-page-html.ts): the markup of the page at `url`, as the
 * browser will draw it before any script has run. Waits for lazily loaded pages to arrive.
 */
export async function renderPage(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <AppShell />
      </StaticRouter>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
