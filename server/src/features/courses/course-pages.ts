// The public course pages' HTML, filled per course. Seams, in order: the cache of filled pages
// (CoursePages.fill: look up, build, compress, keep), the one not-found page every unknown
// address shares, and the HTML edits (withHead, withData, scriptJson).
import { stat } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { CoursePageData } from '@common/course-page-data';
import { COURSE_PAGE_DATA_ID } from '@common/course-page-data';
import { COVER_SIZES } from '@common/courses';
import { documentTitle, PUBLIC_PAGES } from '@common/public-pages';
import type { CourseCard } from '@common/schemas/course-views';
import { withSiteName } from '@common/site';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { escapeHtml } from '../../lib/escape-html';
import type { SharedChanges } from '../shared-state/shared-changes';
import type { CoursesService } from './courses.service';
import { visitorContext } from './viewer-context';

interface Filled {
  status: number;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** The not-found page, the same for every address but for the slug in its data: see notFound. */
interface NotFound {
  key: string;
  /** The page's HTML before and after its data's script element. */
  before: string;
  after: string;
}

/**
 * The built page with the site's words already in it (the site's name, its data and icons:
 * features/site/site-html.ts), handed in by app.ts; the course pages add their own on top.
 */
export interface PageFrame {
  template(builtFile: string, pathname: string): Promise<string>;
  /** The site's name: link previews and the courses' structured data name it as the provider. */
  siteName(): Promise<string>;
}

/** Worked-out pages live this long at most: a dated drip opens without any change to a course. */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 1000;

/**
 * The course pages as search engines and link previews read them: `/courses` and each published
 * course's page answer the built page's HTML with the real title, summary, `og:` and Twitter
 * tags, a canonical link and schema.org data in the HTML itself, and the visitor's view of the
 * data inlined, so the page draws its content without another request. Worked out once per
 * change of any course (the `courses` topic, seen by every process) and kept compressed.
 * An address that is no published course costs one lookup, never a page: it gets the one
 * not-found page (worked out once, not compressed, never in the cache), so a flood of made-up
 * addresses neither builds pages nor pushes the real ones out of the cache.
 */
export class CoursePages {
  private cache = new Map<string, Filled & { at: number }>();
  private revision = '';
  private notFoundPage: NotFound | null = null;

  constructor(
    private readonly courses: CoursesService,
    private readonly changes: SharedChanges,
    private readonly publicUrl: string,
    private readonly frame: PageFrame,
  ) {}

  /**
   * Sends the page when `request` is one of ours and answers true; false lets the SPA serve it as
   * usual. (A boolean, not the reply: a reply is a thenable, which an async function would await.)
   */
  async fill(request: FastifyRequest, reply: FastifyReply, builtFile: string): Promise<boolean> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = request.url.split('?')[0] ?? '';
    const match = /^\/courses(?:\/([^/]+))?\/?$/.exec(pathname);
    if (!match) return false;
    const slug = match[1] ? safeDecode(match[1]).toLowerCase() : null;
    const built = await stat(builtFile).catch(() => null);
    if (!built) return false;
    // A course's change, or the site's (its name is in every page), rebuilds the pages.
    const revision = `${this.changes.revision('courses')}:${this.changes.revision('site')}`;
    if (revision !== this.revision || this.cache.size > MAX_ENTRIES) {
      this.cache.clear();
      this.revision = revision;
    }
    const key = `${built.mtimeMs}:${slug ?? ''}`;
    let page = this.cache.get(key);
    if (!page || Date.now() - page.at > MAX_AGE_MS) {
      const filled = await this.build(builtFile, pathname, slug);
      if (!filled)
        return this.sendNotFound(request, reply, builtFile, pathname, `${built.mtimeMs}:${revision}`, slug!);
      page = { ...filled, at: Date.now() };
      this.cache.set(key, page);
    }
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    const body = encoding ? page[encoding] : page.identity;
    reply
      .code(page.status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding');
    if (encoding) reply.header('Content-Encoding', encoding);
    reply.send(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  /** The not-found page with `slug` in its data (the client shows its not-found message). */
  private async sendNotFound(
    request: FastifyRequest,
    reply: FastifyReply,
    builtFile: string,
    pathname: string,
    /** The built file's time and the courses' revision: one page for every unknown address. */
    key: string,
    slug: string,
  ): Promise<boolean> {
    if (this.notFoundPage?.key !== key) {
      const template = await this.frame.template(builtFile, pathname);
      const html = withHead(template, NOT_FOUND_HEAD, this.publicUrl, await this.frame.siteName());
      const at = html.lastIndexOf('</body>');
      this.notFoundPage = {
        key,
        before: at === -1 ? html : html.slice(0, at),
        after: at === -1 ? '' : `\n  ${html.slice(at)}`,
      };
    }
    const { before, after } = this.notFoundPage;
    const data: CoursePageData = { kind: 'course', slug, course: null };
    reply
      .code(404)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding');
    reply.send(request.method === 'HEAD' ? undefined : `${before}${dataScript(data)}${after}`);
    return true;
  }

  /** The page of the catalogue (`slug` null) or of a published course; null when there is none. */
  private async build(builtFile: string, pathname: string, slug: string | null): Promise<Filled | null> {
    const [template, siteName] = await Promise.all([
      this.frame.template(builtFile, pathname),
      this.frame.siteName(),
    ]);
    const who = visitorContext();
    let data: CoursePageData;
    let head: Head;
    if (slug === null) {
      const courses = await this.courses.cards(who);
      data = { kind: 'catalogue', courses };
      head = {
        title: PUBLIC_PAGES.courses.title,
        description: withSiteName(PUBLIC_PAGES.courses.description, siteName),
        path: '/courses',
        ...imageOf(
          courses.find((c) => c.coverUrl),
          COVER_SIZES.card,
        ),
        jsonLd: {
          '@context': 'https://schema.org',
          '@type': 'ItemList',
          itemListElement: courses.map((c, i) => ({
            '@type': 'ListItem',
            position: i + 1,
            url: `${this.publicUrl}/courses/${c.slug}`,
            name: c.title,
          })),
        },
      };
    } else {
      const course = await this.courses.course(slug, who).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      });
      if (!course) return null;
      data = { kind: 'course', slug, course };
      head = {
        title: course.title,
        description: course.summary || withSiteName(PUBLIC_PAGES.course.description, siteName),
        path: `/courses/${course.slug}`,
        ...imageOf(course, COVER_SIZES.page),
        jsonLd: {
          '@context': 'https://schema.org',
          '@type': 'Course',
          name: course.title,
          description: course.summary,
          url: `${this.publicUrl}/courses/${course.slug}`,
          provider: { '@type': 'Organization', name: siteName, sameAs: this.publicUrl },
        },
      };
    }
    const html = withData(withHead(template, head, this.publicUrl, siteName), data);
    const identity = Buffer.from(html);
    return {
      status: 200,
      identity,
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: gzipSync(identity, { level: 9 }),
    };
  }
}

interface Head {
  title: string;
  description: string;
  /** The page's own address (its canonical link and og:url); none for the not-found page. */
  path?: string;
  image: string | null;
  /** The image's resized copies and the width it shows at, for the preload to pick as the page will. */
  imageCopies?: { srcset: string; sizes: string };
  jsonLd?: unknown;
}

const NOT_FOUND_HEAD: Head = {
  title: 'Course not found',
  description: 'There is no course at this address.',
  image: null,
};

/** A course's cover for the page's head, with its copies when they are made. */
function imageOf(course: CourseCard | undefined, sizes: string): Pick<Head, 'image' | 'imageCopies'> {
  if (!course?.coverUrl) return { image: null };
  const srcset = course.coverSrcset;
  return { image: course.coverUrl, ...(srcset ? { imageCopies: { srcset, sizes } } : {}) };
}

/** JSON inside a <script> element: nothing in it can close the element or open a comment. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

function withHead(html: string, head: Head, publicUrl: string, siteName: string): string {
  const url = head.path === undefined ? null : `${publicUrl}${head.path}`;
  const description = head.description.slice(0, 300);
  const tags = [
    ...(url ? [`<link rel="canonical" href="${escapeHtml(url)}" />`] : []),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    ...(url ? [`<meta property="og:url" content="${escapeHtml(url)}" />`] : []),
    ...(head.image
      ? [
          `<meta property="og:image" content="${escapeHtml(`${publicUrl}${head.image}`)}" />`,
          // The picture the page shows first: fetched along with the page's code, not after it ran.
          // With copies, the browser picks from them as the <img> will (never the original on a phone).
          `<link rel="preload" as="image" href="${escapeHtml(head.image)}"${
            head.imageCopies
              ? ` imagesrcset="${escapeHtml(head.imageCopies.srcset)}" imagesizes="${escapeHtml(head.imageCopies.sizes)}"`
              : ''
          } fetchpriority="high" />`,
        ]
      : []),
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}" />`,
    ...(head.jsonLd ? [`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`] : []),
  ];
  // Function replacements throughout: a string replacement reads `$'`, `$&`, `$$`… in a course's
  // title or summary as patterns (one such title made 45 <title> tags and broke the JSON-LD).
  return html
    .replace(
      /<title>[^<]*<\/title>/,
      () => `<title>${escapeHtml(documentTitle(head.title, siteName))}</title>`,
    )
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}

function withData(html: string, data: CoursePageData): string {
  return html.replace('</body>', () => `${dataScript(data)}\n  </body>`);
}

const dataScript = (data: CoursePageData) =>
  `<script type="application/json" id="${COURSE_PAGE_DATA_ID}">${scriptJson(data)}</script>`;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
