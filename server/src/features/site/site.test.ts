import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteAdminView } from '@common/schemas/site';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../store/sqlite/store';
import type { StoredDoc } from '../../store/store';
import { copyStore } from '../../store/store-copy';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

/** Issue 37, items 1, 2 and 6: the Site section's settings and pages, their refusals, and where they live. */
let t: TestApp;
let token = '';
let adminEmail = '';

const GOOD = {
  name: 'Calm Coaching',
  tagline: 'Breathe, then begin.',
  accentColor: '#1d4ed8',
  contactEmail: 'hello@calm.example',
  socialLinks: [{ label: 'Instagram', url: 'https://instagram.com/calm' }],
  logo: null as string | null,
  icon: null as string | null,
};

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t, { role: 'admin' });
  token = admin.token;
  adminEmail = admin.user.email;
  const images = path.join(t.dataDir, 'media', 'image');
  await mkdir(images, { recursive: true });
  const square = { create: { width: 600, height: 600, channels: 3, background: '#1d4ed8' } } as const;
  await writeFile(path.join(images, 'logo.png'), await sharp(square).png().toBuffer());
  await writeFile(path.join(images, 'not-a-picture.png'), 'this is plain text, renamed');
  // 20 MB of a real PNG: a picture too large for a header (random pixels do not compress).
  const big = Buffer.alloc(20 * 1024 * 1024 + 1);
  (await sharp(square).png().toBuffer()).copy(big);
  await writeFile(path.join(images, 'huge.png'), big);
});
afterAll(() => t.close());

const put = (url: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, payload: payload as object, headers: bearer(token) });
const adminView = async () =>
  (await t.app.inject({ url: '/api/admin/site', headers: bearer(token) })).json().data as SiteAdminView;

describe('the site settings (the console’s Site section)', () => {
  it('are the console’s alone', async () => {
    const member = await createUser(t);
    expect((await t.app.inject({ url: '/api/admin/site' })).statusCode).toBe(401);
    const answer = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/site',
      headers: bearer(member.token),
      payload: GOOD,
    });
    expect(answer.statusCode).toBe(403);
  });

  it('refuses an accent colour under 4.5:1 for white text, saying so, and changes nothing', async () => {
    const before = await adminView();
    const answer = await put('/api/admin/site', { ...GOOD, accentColor: '#fbbf24' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(
      /White text on #fbbf24 has a contrast of 1\.\d\d:1; it needs at least 4\.5:1/,
    );
    expect(await adminView()).toEqual(before);
  });

  it.each([
    ['a name on two lines', { name: 'Calm\nBcc: x@evil.example' }, /one line/],
    ['an empty name', { name: '  ' }, /name is required/],
    [
      'a social link that is not https',
      { socialLinks: [{ label: 'X', url: 'javascript:alert(1)' }] },
      /https:\/\//,
    ],
    ['a logo that is not a picture', { logo: 'image/not-a-picture.png' }, /not a picture this site can show/],
    ['a 20 MB logo', { logo: 'image/huge.png' }, /The logo is 20\.0 MB; at most 5 MB/],
    ['a logo outside the library', { logo: 'image/../../secret.png' }, /media library/],
    ['an icon that does not exist', { icon: 'image/missing.png' }, /not in the media library/],
  ])('refuses %s with a clear message, nothing changed', async (_case, change, message) => {
    const before = await adminView();
    const answer = await put('/api/admin/site', { ...GOOD, ...change });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(message);
    expect(await adminView()).toEqual(before);
  });

  it('saves them, records who changed what in the Activity log, and every visitor reads them', async () => {
    const answer = await put('/api/admin/site', { ...GOOD, logo: 'image/logo.png', icon: 'image/logo.png' });
    expect(answer.statusCode).toBe(200);
    const site = (await t.app.inject({ url: '/api/site' })).json().data;
    expect(site).toEqual({
      name: 'Calm Coaching',
      tagline: 'Breathe, then begin.',
      accentColor: '#1d4ed8',
      contactEmail: 'hello@calm.example',
      socialLinks: [{ label: 'Instagram', url: 'https://instagram.com/calm' }],
      logoUrl: '/media/image/logo.png',
      hasIcon: true,
    });
    const log = (
      await t.app.inject({ url: '/api/admin/activity?kind=site.saved', headers: bearer(token) })
    ).json();
    const entry = log.data[0];
    expect(entry.actorEmail).toBe(adminEmail);
    expect(entry.summary).toMatch(
      /^Saved the site’s name, tagline, accentColor, contactEmail, socialLinks, logo, icon$/,
    );
    expect(entry.before.name).toBe('My Site');
    expect(entry.after.name).toBe('Calm Coaching');
  });

  it('makes the favicon and touch icons from the icon with sharp, and names them in the web manifest', async () => {
    for (const size of [32, 180, 192, 512]) {
      const icon = await t.app.inject({ url: `/site-icon/${size}.png` });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      const meta = await sharp(icon.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    expect((await t.app.inject({ url: '/site-icon/33.png' })).statusCode).toBe(404);
    const manifest = (await t.app.inject({ url: '/manifest.webmanifest' })).json();
    expect(manifest).toMatchObject({ name: 'Calm Coaching', theme_color: '#1d4ed8' });
    expect(manifest.icons.map((icon: { src: string }) => icon.src)).toEqual([
      '/site-icon/192.png',
      '/site-icon/512.png',
    ]);
  });
});

describe('the pages the owner writes', () => {
  it('shows a helpful default on a page left empty, never a blank one', async () => {
    for (const name of ['about', 'terms', 'privacy', 'contact']) {
      const page = (await t.app.inject({ url: `/api/site/pages/${name}` })).json().data;
      expect(page.title.length, name).toBeGreaterThan(0);
      expect(page.description, name).toContain('Calm Coaching');
      expect(page.html.length, name).toBeGreaterThan(40);
    }
    const contact = (await t.app.inject({ url: '/api/site/pages/contact' })).json().data;
    expect(contact.html).toContain('mailto:hello@calm.example');
    expect(contact.html).toContain('href="https://instagram.com/calm"');
    const home = (await t.app.inject({ url: '/api/site/pages/home' })).json().data;
    expect(home).toMatchObject({ title: 'Calm Coaching', headline: 'Breathe, then begin.' });
  });

  it('saves a page with its own title and description, rendered by the lessons’ Markdown rules', async () => {
    const answer = await put('/api/admin/site/pages/about', {
      title: 'About Anna',
      description: 'Anna has coached for twenty years.',
      markdown: '# Hello\n\nI am **Anna**. [Write to me](mailto:anna@calm.example).',
    });
    expect(answer.statusCode).toBe(200);
    const page = (await t.app.inject({ url: '/api/site/pages/about' })).json().data;
    expect(page).toEqual({
      name: 'about',
      title: 'About Anna',
      description: 'Anna has coached for twenty years.',
      headline: '',
      // The page's title is its h1: the text's headings start a level below, as in lessons.
      html: '<h2>Hello</h2>\n<p>I am <strong>Anna</strong>. <a href="mailto:anna@calm.example">Write to me</a>.</p>',
    });
    const log = (
      await t.app.inject({ url: '/api/admin/activity?kind=site.page', headers: bearer(token) })
    ).json();
    expect(log.data[0]).toMatchObject({ summary: 'Edited the About page', actorEmail: adminEmail });
    expect(
      (await put('/api/admin/site/pages/secrets', { title: '', description: '', markdown: '' })).statusCode,
    ).toBe(400);
  });

  it('keeps no script of the OWASP XSS vectors, in the saved page and in the live preview', async () => {
    const vectors = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<IMG SRC="javascript:alert(\'XSS\');">',
      '<svg/onload=alert(1)>',
      '<a href="javascript:alert(1)">click</a>',
      '[click](javascript:alert(1))',
      '<iframe src="https://evil.example"></iframe>',
      '<body onload=alert(1)>',
      '<div style="background:url(javascript:alert(1))">x</div>',
      '<a href="&#106;avascript:alert(1)">entity</a>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
    ].join('\n\n');
    expect(
      (await put('/api/admin/site/pages/privacy', { title: 'Privacy', description: 'd', markdown: vectors }))
        .statusCode,
    ).toBe(200);
    const saved = (await t.app.inject({ url: '/api/site/pages/privacy' })).json().data.html as string;
    const preview = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/site/preview',
        headers: bearer(token),
        payload: { markdown: vectors },
      })
    ).json().data.html as string;
    for (const html of [saved, preview]) {
      // No element that runs or loads anything, no handler or style attribute, no script address
      // (what the vectors tried stays, at most, as harmless text).
      expect(html).not.toMatch(/<(?:script|iframe|svg|object|style|body|math|img|embed)\b/i);
      expect(html).not.toMatch(/\s(?:on\w+|style)\s*=/i);
      expect(html).not.toMatch(/(?:href|src)\s*=\s*"?\s*(?:javascript|data):/i);
    }
    expect(preview).toBe(saved);
  });

  it('refuses a title on two lines or a text too long, nothing changed', async () => {
    const before = (await adminView()).pages.about;
    const twoLines = await put('/api/admin/site/pages/about', {
      title: 'A\nB',
      description: '',
      markdown: 'x',
    });
    expect(twoLines.statusCode).toBe(400);
    expect(twoLines.json().message).toMatch(/title must be one line/);
    const long = await put('/api/admin/site/pages/about', {
      title: 'A',
      description: '',
      markdown: 'x'.repeat(100_001),
    });
    expect(long.json().message).toMatch(/at most 100000 characters/);
    expect((await adminView()).pages.about).toEqual(before);
  });
});

// A second server process on either store: site.mongodb.test.ts.
describe('where the settings live (item 6)', () => {
  it('is in the store, so a backup or a move to MongoDB (a copy of every collection) carries it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'site-copy-'));
    const target = await openEmbeddedStore(dir, () => undefined);
    try {
      await copyStore(t.store, target, { from: 'test' });
      const settings = await target
        .collection<StoredDoc & { key: string; value: { name?: string } }>('settings')
        .findOne({ key: 'site' });
      expect(settings?.value.name).toBe('Calm Coaching');
      const pages = await target
        .collection<StoredDoc & { key: string; value: { about?: { title: string } } }>('settings')
        .findOne({
          key: 'site-pages',
        });
      expect(pages?.value.about?.title).toBe('About Anna');
    } finally {
      await target.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
