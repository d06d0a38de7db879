import { PUBLIC_PAGES } from '@common/public-pages';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCourse, buildCourse } from '../../test/courses-kit';
import { createTestApp, createUser, type TestApp } from '../../test/test-app';
import { CoursesRepository } from '../courses/courses.repository';
import { VisitorPages } from '../courses/visitor-pages';
import { DISALLOWED } from './robots';
import { SitemapService } from './sitemap.service';
import { SITEMAP_NAMESPACE, URLS_PER_FILE } from './sitemap-xml';

const SITE = 'https://coach.example.com';
/** W3C Datetime as the sitemap schema allows it (here always to the second, in UTC). */
const W3C_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const collect = async (chunks: AsyncIterable<string>) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

/**
 * The rules of the sitemap schema (sitemaps.org/schemas/sitemap/0.9/sitemap.xsd and
 * siteindex.xsd) checked on a parsed document: well-formed XML, the protocol's namespace on every
 * element, `loc` present once, absolute and at most 2,048 characters, `lastmod` a W3C datetime,
 * nothing else, at most 50,000 entries. Answers the addresses in order.
 */
function checkSchema(xml: string, root: 'urlset' | 'sitemapindex'): string[] {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const document = new new JSDOM().window.DOMParser().parseFromString(xml, 'application/xml');
  expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
  const top = document.documentElement;
  expect([top.localName, top.namespaceURI]).toEqual([root, SITEMAP_NAMESPACE]);
  const entry = root === 'urlset' ? 'url' : 'sitemap';
  const locs: string[] = [];
  for (const child of Array.from(top.children)) {
    expect([child.localName, child.namespaceURI]).toEqual([entry, SITEMAP_NAMESPACE]);
    const parts = Array.from(child.children);
    expect(parts.map((part) => part.localName).filter((name) => name !== 'lastmod')).toEqual(['loc']);
    for (const part of parts) expect(part.namespaceURI).toBe(SITEMAP_NAMESPACE);
    const loc = parts.find((part) => part.localName === 'loc')!.textContent!;
    expect(new URL(loc).protocol).toMatch(/^https?:$/);
    expect(loc.length).toBeLessThanOrEqual(2048);
    const lastmod = parts.find((part) => part.localName === 'lastmod');
    if (lastmod) expect(lastmod.textContent).toMatch(W3C_DATETIME);
    locs.push(loc);
  }
  expect(locs.length).toBeGreaterThan(0);
  expect(locs.length).toBeLessThanOrEqual(URLS_PER_FILE);
  return locs;
}

describe('/robots.txt and /sitemap.xml', () => {
  let t: TestApp;
  let open: BuiltCourse;
  let members: BuiltCourse;
  let draft: string;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: `${SITE}/` });
    const { token } = await createUser(t, { role: 'admin' });
    open = await buildCourse(t, token, 'public', 'Open to everyone');
    members = await buildCourse(t, token, 'members', 'For members');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/courses',
      headers: { authorization: `Bearer ${token}` },
      payload: { title: 'Still a draft' },
    });
    draft = created.json().data.slug;
  });
  afterAll(() => t.close());

  it('robots.txt keeps crawlers out of the console, accounts and the API, and names the sitemap', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = answer.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/admin', '/account', '/dashboard', '/api/'])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(DISALLOWED).toContain('/api/');
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    // Public pages stay readable: no rule covers them.
    for (const page of ['/', '/courses', '/terms', `/courses/${open.course.slug}`])
      expect(DISALLOWED.some((path) => page.startsWith(path))).toBe(false);
  });

  it('lists the home and public pages, each published course, and only the lessons a visitor may open', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = checkSchema(answer.body, 'urlset');
    expect(locs[0]).toBe(`${SITE}/`);
    for (const page of ['/courses', '/terms', '/join']) expect(locs).toContain(`${SITE}${page}`);
    // Every public page but the sign-in and reset steps; never a route pattern such as /courses/:slug.
    for (const page of Object.values(PUBLIC_PAGES).filter((p) => !p.path.includes(':')))
      expect(locs.includes(`${SITE}${page.path}`)).toBe(!['/login', '/forgot-password'].includes(page.path));
    expect(locs.some((loc) => loc.includes('/:'))).toBe(false);
    const lesson = (built: BuiltCourse, id: string) => `${SITE}/courses/${built.course.slug}/lessons/${id}`;
    // The public course: its free preview, the open section's lesson, the section whose date has come.
    expect(locs).toContain(`${SITE}/courses/${open.course.slug}`);
    for (const id of [open.lessons.preview, open.lessons.video, open.lessons.datePast])
      expect(locs).toContain(lesson(open, id));
    // Not a section that opens days after joining, nor one whose date is still to come.
    for (const id of [open.lessons.dripDays, open.lessons.dateFuture])
      expect(locs).not.toContain(lesson(open, id));
    // A members' course: its page and its free preview alone.
    expect(locs.filter((loc) => loc.includes(members.course.slug))).toEqual([
      `${SITE}/courses/${members.course.slug}`,
      lesson(members, members.lessons.preview),
    ]);
    expect(locs.some((loc) => loc.includes(draft))).toBe(false);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('reads the course pages from any place in their order, as a later file starts', async () => {
    const source = new VisitorPages(new CoursesRepository(t.store));
    const all: string[] = [];
    for await (const page of source.pages(0)) all.push(page.path);
    expect(await source.count()).toBe(all.length);
    expect(all).toHaveLength(2 + 3 + 1); // two course pages, three open lessons, one free preview
    for (let from = 1; from <= all.length; from++) {
      const rest: string[] = [];
      for await (const page of source.pages(from)) rest.push(page.path);
      expect(rest, `from ${from}`).toEqual(all.slice(from));
    }
  });
});

describe('a sitemap above the limit of one file', () => {
  const pages = (count: number) => ({
    count: async () => count,
    async *pages(from: number) {
      for (let i = from; i < count; i++)
        yield { path: `/courses/c/lessons/${i}`, updatedAt: new Date(Date.UTC(2026, 0, 1)) };
    },
  });
  const changes = { revision: () => 1 };

  it('becomes an index of files, each within the limit, together every address once', async () => {
    const perFile = 4;
    const sitemap = new SitemapService({ publicUrl: SITE, coursePages: pages(10), changes }, perFile);
    const files = await sitemap.files();
    const index = checkSchema(await collect(sitemap.main()), 'sitemapindex');
    expect(index).toEqual(Array.from({ length: files }, (_, i) => `${SITE}/sitemaps/${i + 1}.xml`));
    const all: string[] = [];
    for (let n = 1; n <= files; n++) {
      const locs = checkSchema(await collect(sitemap.file(n)), 'urlset');
      expect(locs.length).toBeLessThanOrEqual(perFile);
      all.push(...locs);
    }
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((loc) => loc.includes('/lessons/'))).toHaveLength(10);
    expect(all[0]).toBe(`${SITE}/`);
    expect(URLS_PER_FILE).toBe(50_000);
  });

  it('escapes what XML and addresses require, so the parsed address is the one meant', async () => {
    const odd = `/courses/a&b'c"d<e>`;
    const sitemap = new SitemapService({
      publicUrl: SITE,
      changes,
      coursePages: {
        count: async () => 1,
        async *pages() {
          yield { path: odd };
        },
      },
    });
    const xml = await collect(sitemap.main());
    expect(xml).toContain('/courses/a&amp;b&apos;c&quot;d&lt;e&gt;');
    expect(checkSchema(xml, 'urlset')).toContain(`${SITE}${odd}`);
  });
});
