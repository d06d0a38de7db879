import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { createServer, type Plugin } from 'vite';
import { aliases } from '../aliases.ts';
import { documentTitle, PUBLIC_PAGES, type PublicPageName } from '../common/public-pages.ts';
import { SITE_MARKS } from '../common/site.ts';

/**
 * Writes one HTML file per public page, `pages/<name>.html`, each with:
 * - the page itself, rendered by React at build time (client/src/entry-prerender.tsx), so that
 *   a phone draws it as soon as the HTML and CSS arrive instead of after downloading and running
 *   the app; the app then takes it over (hydration);
 * - the page's own title and meta description, for search engines, which need no JavaScript;
 * - `modulepreload` links for the page's own code, fetched together with the app's rather than
 *   after the app has run and found it needs them.
 * The server answers each public path with its file (server/src/http/spa.ts). index.html stays
 * an empty shell, for every other address: the console, the member dashboard, the 404 page.
 */
export function pageHtml(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'page-html',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('page-html: index.html is not in the bundle');
        const template = String(index.source);
        const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('page-html: no entry chunk');
        const loadedByIndex = withImports(bundle, [entry.fileName]);

        for (const name of Object.keys(PUBLIC_PAGES) as PublicPageName[]) {
          const page: { module?: string; title: string; description: string } = PUBLIC_PAGES[name];
          let html = withMeta(template, page.title, page.description);
          if (page.module) {
            const chunk = chunks.find((c) => c.facadeModuleId === path.join(root, 'src', page.module!));
            if (!chunk) throw new Error(`page-html: no chunk for ${page.module}`);
            const preloads = [...withImports(bundle, [chunk.fileName])].filter((f) => !loadedByIndex.has(f));
            const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
            html = html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
          }
          this.emitFile({ type: 'asset', fileName: htmlFile(name), source: html });
        }
      },
    },
    // Sequential, so that the pages are complete before they are compressed (precompress).
    writeBundle: {
      sequential: true,
      async handler() {
        await prerender(root, outDir);
      },
    },
  };
}

function htmlFile(name: PublicPageName): string {
  return `pages/${name}.html`;
}

/** Renders each public page into its HTML file, with the app's own code run by Vite for Node. */
async function prerender(root: string, outDir: string): Promise<void> {
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'vite-prerender-'));
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    plugins: [react()],
    resolve: { alias: aliases },
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    // Nothing is served to a browser here: no dependency pre-bundling, and whatever Vite caches
    // goes to a folder of its own, not the one `npm run dev` uses.
    optimizeDeps: { noDiscovery: true, include: [] },
    cacheDir,
  });
  try {
    const { renderPage } = (await server.ssrLoadModule('/src/entry-prerender.tsx')) as {
      renderPage: (url: string) => Promise<string>;
    };
    for (const name of Object.keys(PUBLIC_PAGES) as PublicPageName[]) {
      const file = path.join(outDir, htmlFile(name));
      const html = await readFile(file, 'utf8');
      const url = PUBLIC_PAGES[name].path.replace(/:\w+/g, 'x');
      const filled = html.replace('<div id="root"></div>', `<div id="root">${await renderPage(url)}</div>`);
      if (filled === html) throw new Error(`page-html: no empty <div id="root"> in ${file}`);
      await writeFile(file, filled);
    }
  } finally {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** The files and everything they import statically. */
function withImports(bundle: OutputBundle, files: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (seen.has(file) || chunk?.type !== 'chunk') return;
    seen.add(file);
    for (const imported of chunk.imports) visit(imported);
  };
  for (const file of files) visit(file);
  return seen;
}

function withMeta(html: string, title: string, description: string): string {
  const escapeHtml = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const titled = html.replace(
    /<title>[^<]*<\/title>/,
    `<title>${escapeHtml(documentTitle(title, SITE_MARKS.name))}</title>`,
  );
  const described = titled.replace(
    /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
    `<meta name="description" content="${escapeHtml(description)}" />`,
  );
  if (described === titled) throw new Error('page-html: index.html has no meta description to replace');
  return described;
}
