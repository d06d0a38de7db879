import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CoursePageData } from '@common/course-page-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../lib/escape-html';
import { adminApi, member } from '../../test/courses-kit';
import { createTestApp, type TestApp } from '../../test/test-app';

const PAGE = (title: string) =>
  `<!doctype html><html><head><meta name="description" content="built" /><title>${title}</title></head><body><div id="root"><main>skeleton</main></div></body></html>`;

let t: TestApp;
let dist = '';
let call: ReturnType<typeof adminApi>;

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'dist-'));
  await mkdir(path.join(dist, 'pages'));
  await writeFile(path.join(dist, 'index.html'), PAGE('app'));
  await writeFile(path.join(dist, 'pages', 'courses.html'), PAGE('Courses built'));
  await writeFile(path.join(dist, 'pages', 'course.html'), PAGE('Course built'));
  t = await createTestApp({ CLIENT_DIST_DIR: dist, PUBLIC_URL: 'https://coach.example' });
  call = adminApi(t, (await member(t, { role: 'admin' })).token);
  const course = await call<{ id: string }>('POST', '/api/admin/courses', {
    title: 'Calm </script><script>alert(1)</script> mornings',
  });
  await call('PUT', `/api/admin/courses/${course.id}`, {
    slug: 'calm-mornings',
    summary: 'Ten minutes a day & a "quiet" start.',
    coverUrl: '/media/image/calm.jpg',
    access: 'paid',
    published: true,
  });
  await call('POST', '/api/admin/courses', { title: 'Unpublished draft' });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

const dataOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="course-page-data">([^<]*)<\/script>/.exec(html)![1]!,
  ) as CoursePageData;

describe('the course pages as search engines and link previews read them', () => {
  it('/courses carries its title, summary, og: tags and the published courses in the HTML', async () => {
    const response = await t.app.inject({ url: '/courses', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<title>Courses · My Site</title>');
    expect(html).toContain('<meta property="og:title" content="Courses" />');
    expect(html).toContain('<link rel="canonical" href="https://coach.example/courses" />');
    expect(html).toContain('"@type":"ItemList"');
    expect(html).toContain('<main>skeleton</main>');
    const data = dataOf(html);
    expect(data.kind === 'catalogue' && data.courses.map((c) => c.slug)).toEqual(['calm-mornings']);
  });

  it('a course page carries the course’s own title, summary, picture and og: tags, safely escaped', async () => {
    const response = await t.app.inject({
      url: '/courses/calm-mornings',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    const plain = await t.app.inject({ url: '/courses/calm-mornings' });
    const html = plain.body;
    expect(html).toContain(
      '<title>Calm &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; mornings · My Site</title>',
    );
    expect(html).toContain(
      '<meta name="description" content="Ten minutes a day &amp; a &quot;quiet&quot; start." />',
    );
    expect(html).toContain(
      '<meta property="og:description" content="Ten minutes a day &amp; a &quot;quiet&quot; start." />',
    );
    expect(html).toContain(
      '<meta property="og:image" content="https://coach.example/media/image/calm.jpg" />',
    );
    expect(html).toContain(
      '<link rel="preload" as="image" href="/media/image/calm.jpg" fetchpriority="high" />',
    );
    expect(html).toContain(
      '<meta property="og:url" content="https://coach.example/courses/calm-mornings" />',
    );
    expect(html).toContain('"@type":"Course"');
    // Nothing in the inlined data can end its script element: JSON-LD, the course's data, the site's.
    expect(html.match(/<\/script>/g)?.length).toBe(3);
    const data = dataOf(html);
    expect(data.kind === 'course' && data.course?.title).toBe(
      'Calm </script><script>alert(1)</script> mornings',
    );
    expect(data.kind === 'course' && data.course?.lock?.reason).toBe('upgrade');
  });

  it('an unknown or unpublished course answers 404 with the page (the client shows not found)', async () => {
    for (const url of ['/courses/nothing-here', '/courses/unpublished-draft']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<title>Course not found · My Site</title>');
      expect(dataOf(response.body)).toEqual({ kind: 'course', slug: url.split('/')[2], course: null });
    }
  });

  it("keeps `$'`, `$&`, `$$` in a title or summary as written: one <title>, JSON-LD that parses", async () => {
    const title = "Save $' now, $` later, $& and $$ too";
    const summary = "Costs $$5 ($' off, $` and $&)";
    const course = await call<{ id: string }>('POST', '/api/admin/courses', { title });
    await call('PUT', `/api/admin/courses/${course.id}`, { slug: 'dollars', summary, published: true });
    const html = (await t.app.inject({ url: '/courses/dollars' })).body;
    expect(html.match(/<title>/g)?.length).toBe(1);
    expect(html).toContain(`<title>${escapeHtml(title)} · My Site</title>`);
    expect(html).toContain(`<meta name="description" content="${escapeHtml(summary)}" />`);
    expect(html.match(/<\/head>/g)?.length).toBe(1);
    const jsonLd = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(jsonLd)).toMatchObject({ name: title, description: summary });
    const data = dataOf(html);
    expect(data.kind === 'course' && data.course?.title).toBe(title);
    await call('PUT', `/api/admin/courses/${course.id}`, { published: false });
  });

  it('answers a flood of unknown addresses with the one not-found page, keeping the real pages cached', async () => {
    const page = () => t.app.inject({ url: '/courses/calm-mornings' });
    const before = (await page()).body;
    expect(before).toContain('<meta property="og:title"');
    // Changed behind the pages' back (no change announced): only a page worked out anew shows it.
    await t.store.collection('courses').updateOne({ slug: 'calm-mornings' }, { title: 'Changed quietly' });
    // More unknown addresses than the cache holds pages, sent 50 at a time.
    for (let batch = 0; batch < 22; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.app.inject({
            url: `/courses/made-up-${batch}-${i}`,
            headers: { 'accept-encoding': 'br, gzip' },
          }),
        ),
      );
      for (const response of answers) expect(response.statusCode).toBe(404);
    }
    const unknown = await t.app.inject({ url: '/courses/made-up-again' });
    expect(unknown.body).toContain('<title>Course not found · My Site</title>');
    expect(dataOf(unknown.body)).toEqual({ kind: 'course', slug: 'made-up-again', course: null });
    expect((await page()).body).toBe(before);
  });

  it('follows a change at once (the courses topic)', async () => {
    const list = await call<Array<{ id: string; slug: string }>>('GET', '/api/admin/courses');
    const id = list.find((c) => c.slug === 'calm-mornings')!.id;
    await call('PUT', `/api/admin/courses/${id}`, { title: 'Calm mornings, renewed' });
    expect((await t.app.inject({ url: '/courses/calm-mornings' })).body).toContain(
      '<meta property="og:title" content="Calm mornings, renewed" />',
    );
  });
});
