import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PUBLIC_PAGES } from '@common/public-pages';
import { SITE_MARKS } from '@common/site';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSite } from '../../mail/site-mail';
import { adminApi } from '../../test/courses-kit';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { paymentFailedMail } from '../payments/payments-mail';

/**
 * Issue 37, item 3: after a rename no page, API answer, link-preview tag, JSON-LD block or mail
 * carries the old name. The built pages here are made as the build makes them: the marks where
 * the site's words go (scripts/vite-page-html.ts, client/src/features/site/site-data.ts).
 */
const OLD = 'Old Name Studio';
const NEW = 'Bright & New Studio';

const PAGE = (title: string, description: string, body: string) =>
  `<!doctype html><html><head><meta name="description" content="${description}" /><title>${title}</title>` +
  `<link rel="icon" href="/favicon.svg" type="image/svg+xml" /></head>` +
  `<body><div id="root"><header>${SITE_MARKS.name}</header><main>${body}</main>` +
  `<footer>© 2025 ${SITE_MARKS.name}. All rights reserved.</footer></div></body></html>`;

const OWNER_BODY = `<h1>${SITE_MARKS.pageTitle}</h1><p>${SITE_MARKS.pageHeadline}</p><div>${SITE_MARKS.pageHtml}</div>`;

let t: TestApp;
let dist = '';
let token = '';

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'dist-'));
  await mkdir(path.join(dist, 'pages'));
  await writeFile(path.join(dist, 'index.html'), PAGE(SITE_MARKS.name, 'app', ''));
  for (const [name, page] of Object.entries(PUBLIC_PAGES)) {
    const title = page.title === SITE_MARKS.name ? page.title : `${page.title} · ${SITE_MARKS.name}`;
    const owner = ['home', 'about', 'terms', 'privacy', 'contact'].includes(name);
    await writeFile(
      path.join(dist, 'pages', `${name}.html`),
      PAGE(title, page.description, owner ? OWNER_BODY : ''),
    );
  }
  t = await createTestApp({ CLIENT_DIST_DIR: dist, PUBLIC_URL: 'https://coach.example' });
  const admin = await createUser(t, { role: 'admin' });
  token = admin.token;
  const call = adminApi(t, token);
  const course = await call<{ id: string }>('POST', '/api/admin/courses', { title: 'Calm mornings' });
  await call('PUT', `/api/admin/courses/${course.id}`, {
    slug: 'calm-mornings',
    access: 'public',
    published: true,
  });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

const rename = async (name: string) => {
  const answer = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/site',
    headers: bearer(token),
    payload: {
      name,
      tagline: '',
      accentColor: '#b45309',
      contactEmail: '',
      socialLinks: [],
      logo: null,
      icon: null,
    },
  });
  expect(answer.statusCode).toBe(200);
};

/** Every public page and every public answer, as a visitor or a search engine reads them. */
const ADDRESSES = [
  ...Object.values(PUBLIC_PAGES).map((page) =>
    page.path.replace(':slug', 'calm-mornings').replace(':token', 'abc'),
  ),
  '/courses/no-such-course',
  '/no/such/page',
  '/dashboard',
  '/api/site',
  ...['home', 'about', 'terms', 'privacy', 'contact'].map((name) => `/api/site/pages/${name}`),
  '/api/courses',
  '/api/courses/calm-mornings',
  '/manifest.webmanifest',
];

const crawl = async () =>
  Promise.all(
    ADDRESSES.map(async (url) => {
      const answer = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      return { url, status: answer.statusCode, body: answer.body };
    }),
  );

describe('a renamed site', () => {
  it('names itself everywhere with its new name and nowhere with the old: pages, og: tags, JSON-LD, answers', async () => {
    await rename(OLD);
    // Every page worked out and kept with the old name first: the save must refresh them all.
    for (const { url, body } of await crawl()) expect(body, url).not.toContain(SITE_MARKS.name);
    await rename(NEW);
    const pages = await crawl();
    for (const { url, status, body } of pages) {
      expect(status, url).toBeLessThan(500);
      expect(body, url).not.toContain(OLD);
      expect(body, url).not.toMatch(/%SITE_[A-Z_]+%/);
    }
    const html = (url: string) => pages.find((page) => page.url === url)!.body;
    const escaped = 'Bright &amp; New Studio';
    expect(html('/')).toContain(`<title>${escaped}</title>`);
    expect(html('/')).toContain(`<header>${escaped}</header>`);
    expect(html('/login')).toContain(`<title>Sign In · ${escaped}</title>`);
    expect(html('/login')).toContain(`<meta property="og:site_name" content="${escaped}" />`);
    expect(html('/login')).toContain(`<footer>© 2025 ${escaped}. All rights reserved.</footer>`);
    expect(html('/about')).toContain(
      `<meta name="description" content="Who is behind ${escaped}, and what the courses are for." />`,
    );
    const course = html('/courses/calm-mornings');
    expect(course).toContain(`<meta property="og:site_name" content="${escaped}" />`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(course)![1]!);
    expect(jsonLd.provider).toEqual({ '@type': 'Organization', name: NEW, sameAs: 'https://coach.example' });
    expect(JSON.parse(html('/api/site')).data.name).toBe(NEW);
    expect(JSON.parse(html('/manifest.webmanifest')).name).toBe(NEW);
  });

  it('sends every mail from, greeting with and signed by its new name', async () => {
    await rename(OLD);
    await rename(NEW);
    const member = await createUser(t, { email: 'member@example.com', password: 'member-pass' });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'member@example.com' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/account/email',
      headers: bearer(member.token),
      payload: { email: 'moved@example.com', password: 'member-pass' },
    });
    const outbox = path.join(t.dataDir, 'outbox');
    const deadline = Date.now() + 5000;
    let files: string[] = [];
    while (files.length < 3 && Date.now() < deadline) {
      files = (await readdir(outbox).catch(() => [])).filter((file) => file.endsWith('.eml'));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(files).toHaveLength(3);
    for (const file of files) {
      // Read as a mail program reads it: headers decoded, quoted-printable undone.
      const mail = await simpleParser(await readFile(path.join(outbox, file)));
      const whole = [mail.from?.text, mail.subject, mail.text, mail.html].join('\n');
      expect(whole, file).not.toContain(OLD);
      expect(mail.from?.value[0]).toMatchObject({ name: NEW });
      expect(mail.subject, file).toMatch(/^Bright & New Studio: /);
      expect(mail.text?.trimEnd().endsWith('— Bright & New Studio'), file).toBe(true);
      expect(mail.html, file).toContain('<p>— Bright &amp; New Studio</p>');
    }
    // The payment mail, made as the webhook makes it (its own tests send it through Stripe's stand-in).
    const payment = paymentFailedMail(
      'owner@example.com',
      { name: 'Ann', email: 'ann@example.com' },
      {},
      'https://coach.example/admin/dashboard',
      NEW,
    );
    expect(payment).toMatchObject({ fromName: NEW, subject: `${NEW}: a member's payment failed` });
    expect(payment.text.endsWith(`— ${NEW}`)).toBe(true);
    expect(fromSite(NEW, { to: 'a@example.com', subject: 's', text: 't' }).html).toBeUndefined();
  });
});
