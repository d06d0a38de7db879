// Every page of the web client with the site's own words in it. Seams, in order: the template
// (the built file with the marks filled and the site's data inlined, also handed to the course
// pages), the page as sent (link-preview tags, compressed, kept per change of the site), and the
// HTML edits.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isAppPath } from '@common/app-paths';
import { documentTitle, PUBLIC_PAGES, publicPageAt } from '@common/public-pages';
import {
  ownerPageAt,
  SITE_DATA_ID,
  SITE_ICON_SIZES,
  SITE_MARKS,
  type SiteData,
  siteLogoHtml,
  socialLinksHtml,
} from '@common/site';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/escape-html';
import { scriptJson } from '../courses/course-pages';
import type { SiteService } from './site.service';

interface Sent {
  status: number;
  /** Made from the page's bytes: a browser revalidating an unchanged page gets a 304. */
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const MAX_ENTRIES = 200;

/**
 * The build writes marks where the site's name, tagline and an owner page's words go
 * (common/site.ts); this fills them into the built file, inlines the site's data (the client
 * draws the same words without a request, so the pre-drawn page is taken over as it is), and
 * puts the owner's icon, web manifest and accent colour in the head. Worked out once per change
 * of the site (the `site` topic: a save in any process), so a rename shows on every page at once.
 */
export class SiteHtml {
  private templates = new Map<string, Promise<string>>();
  private sent = new Map<string, Sent>();
  private revision = -1;

  constructor(
    private readonly service: SiteService,
    private readonly publicUrl: string,
  ) {}

  /** The built page at `builtFile`, as the visitor of `pathname` gets it (before any link-preview tags). */
  async template(builtFile: string, pathname: string): Promise<string> {
    this.forgetOnChange();
    const { mtimeMs } = await stat(builtFile);
    const key = `${builtFile}:${mtimeMs}:${ownerPageAt(pathname) ?? ''}`;
    let html = this.templates.get(key);
    if (!html) {
      html = this.build(builtFile, pathname);
      html.catch(() => this.templates.delete(key));
      this.templates.set(key, html);
    }
    return html;
  }

  async siteName(): Promise<string> {
    return (await this.service.publicSite()).name;
  }

  /** Sends any page of the web client (the course pages excepted: they fill themselves from `template`). */
  async fill(request: FastifyRequest, reply: FastifyReply, builtFile: string): Promise<boolean> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = request.url.split('?')[0] ?? '';
    const built = await stat(builtFile).catch(() => null);
    if (!built) return false;
    this.forgetOnChange();
    const page = publicPageAt(pathname);
    const fixedPath = page && !PUBLIC_PAGES[page].path.includes(':') ? pathname : '';
    const key = `${builtFile}:${built.mtimeMs}:${fixedPath}:${isAppPath(pathname)}`;
    let sent = this.sent.get(key);
    if (!sent) {
      const { name } = await this.service.publicSite();
      const url = fixedPath && `${this.publicUrl}${fixedPath}`;
      const html = withPreviewTags(await this.template(builtFile, pathname), url, name);
      const identity = Buffer.from(html);
      sent = {
        status: isAppPath(pathname) ? 200 : 404,
        etag: createHash('sha256').update(identity).digest('base64url').slice(0, 20),
        identity,
        br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
        gzip: gzipSync(identity, { level: 9 }),
      };
      if (this.sent.size >= MAX_ENTRIES) this.sent.clear();
      this.sent.set(key, sent);
    }
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    // Each encoding is its own representation, with its own tag.
    const etag = `"${sent.etag}-${encoding ?? 'identity'}"`;
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'accept-encoding')
      .header('ETag', etag);
    if (sent.status === 200 && request.headers['if-none-match'] === etag) {
      reply.code(304).send();
      return true;
    }
    reply.code(sent.status);
    if (encoding) reply.header('Content-Encoding', encoding);
    reply.send(request.method === 'HEAD' ? undefined : encoding ? sent[encoding] : sent.identity);
    return true;
  }

  private forgetOnChange(): void {
    if (this.revision === this.service.revision && this.templates.size < MAX_ENTRIES) return;
    this.revision = this.service.revision;
    this.templates.clear();
    this.sent.clear();
  }

  private async build(builtFile: string, pathname: string): Promise<string> {
    const owner = ownerPageAt(pathname);
    const [template, site, page] = await Promise.all([
      readFile(builtFile, 'utf8'),
      this.service.publicSite(),
      owner ? this.service.page(owner) : null,
    ]);
    const data: SiteData = { site, page };
    const words: Record<string, string> = {
      [SITE_MARKS.name]: escapeHtml(site.name),
      [SITE_MARKS.tagline]: escapeHtml(site.tagline),
      [SITE_MARKS.pageTitle]: escapeHtml(page?.title ?? ''),
      [SITE_MARKS.pageHeadline]: escapeHtml(page?.headline ?? ''),
      // Safe HTML already: made by the lessons' Markdown rules when the page was saved.
      [SITE_MARKS.pageHtml]: page?.html ?? '',
      // The same markup the client draws (common/site.ts).
      [SITE_MARKS.logo]: siteLogoHtml(site.logoUrl),
      [SITE_MARKS.social]: socialLinksHtml(site.socialLinks),
    };
    // One pass: what is filled in is never read again for marks (an owner may write "%SITE_NAME%").
    let html = template.replace(/%SITE_[A-Z_]+%/g, (mark) => words[mark] ?? mark);
    if (page) {
      html = html
        .replace(
          /<title>[^<]*<\/title>/,
          () => `<title>${escapeHtml(documentTitle(page.title, site.name))}</title>`,
        )
        .replace(
          /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
          () => `<meta name="description" content="${escapeHtml(page.description)}" />`,
        );
    }
    const icons = site.hasIcon
      ? [
          `<link rel="icon" type="image/png" sizes="32x32" href="/site-icon/32.png" />`,
          `<link rel="apple-touch-icon" sizes="180x180" href="/site-icon/180.png" />`,
        ]
      : [];
    const head = [
      ...icons,
      `<link rel="manifest" href="/manifest.webmanifest" />`,
      // The main buttons' colour: white text on it keeps 4.5:1 (checked when saved).
      `<style>:root{--color-brand:${site.accentColor}}</style>`,
    ];
    if (site.hasIcon) html = html.replace(/\s*<link rel="icon" href="\/favicon\.svg"[^>]*>/, '');
    return html
      .replace('</head>', () => `  ${head.join('\n    ')}\n  </head>`)
      .replace(
        '</body>',
        () => `<script type="application/json" id="${SITE_DATA_ID}">${scriptJson(data)}</script>\n  </body>`,
      );
  }
}

/** The manifest browsers read to install the site on a phone's home screen. */
export function webManifest(site: { name: string; accentColor: string; hasIcon: boolean }): string {
  return JSON.stringify({
    name: site.name,
    short_name: site.name.slice(0, 12),
    start_url: '/',
    display: 'standalone',
    background_color: '#0c0a09',
    theme_color: site.accentColor,
    icons: site.hasIcon
      ? SITE_ICON_SIZES.filter((size) => size >= 192).map((size) => ({
          src: `/site-icon/${size}.png`,
          sizes: `${size}x${size}`,
          type: 'image/png',
        }))
      : [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
  });
}

/** The page's title and description again as link-preview tags (the course pages write their own). */
function withPreviewTags(html: string, url: string, siteName: string): string {
  // Both already escaped in the HTML: taken as they are.
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  const description = /<meta\s+name="description"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
  const tags = [
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    ...(url
      ? [
          `<meta property="og:url" content="${escapeHtml(url)}" />`,
          `<link rel="canonical" href="${escapeHtml(url)}" />`,
        ]
      : []),
    `<meta name="twitter:card" content="summary" />`,
  ];
  return html.replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}
