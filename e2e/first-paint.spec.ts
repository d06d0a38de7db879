import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { documentTitle, PUBLIC_PAGES } from '@common/public-pages';
import { SITE_DEFAULTS, withSiteName } from '@common/site';
import { expect, test } from '@playwright/test';
import { openSignedIn, registerMember, tokenFor } from './support/session';

// A course's page is made per course, with the course's own title (e2e/courses.spec.ts checks it).
const PAGES = Object.values(PUBLIC_PAGES)
  .filter((page) => page.path !== PUBLIC_PAGES.course.path)
  .map((page) => ({
    ...page,
    url: page.path.replace(':token', 'some-token'),
  }));

test('each public page arrives drawn, with its own title, description and preloaded code', async ({
  request,
}) => {
  for (const page of PAGES) {
    const response = await request.get(page.url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status(), page.url).toBe(200);
    expect(response.headers()['content-encoding'], page.url).toBe('br');
    const html = await response.text();
    // A fresh site: its name is the placeholder until the owner names it (e2e/site.spec.ts renames it).
    expect(html, page.url).toContain(`<title>${documentTitle(page.title, SITE_DEFAULTS.name)}</title>`);
    const description = withSiteName(page.description, SITE_DEFAULTS.name).replace(/'/g, '&#39;');
    expect(html, page.url).toContain(`<meta name="description" content="${description}" />`);
    // The page's content is in the HTML: nothing has to run before it can be drawn.
    expect(html, page.url).toMatch(/<div id="root"><div/);
    expect(html, page.url).toContain('<h1');
    if ('module' in page) {
      const chunk = page.module.split('/').pop()!.replace('.tsx', '');
      expect(html, page.url).toMatch(new RegExp(`rel="modulepreload"[^>]+/assets/${chunk}-[\\w-]+\\.js`));
    }
  }
});

test('other addresses get the empty shell, drawn in the browser', async ({ request }) => {
  for (const url of ['/dashboard', '/admin/dashboard', '/no/such/page']) {
    const html = await (await request.get(url)).text();
    expect(html, url).toContain('<div id="root"></div>');
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-in page shows its form, which cannot be sent until the page is ready', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeDisabled();
    // A native submit would put the password in the address.
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  });
});

test('every public page is taken over without a mismatch, and its form works', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  for (const { url } of PAGES) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);

  await page.goto('/login');
  await page.getByLabel('Email').fill('someone@example.com');
  await expect(page.getByLabel('Email')).toHaveValue('someone@example.com');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
});

test('a signed-in member opening the landing page is offered the dashboard, without a mismatch', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const member = await registerMember('first-paint');
  // The page was drawn for a visitor; the stored sign-in takes over once the page is live.
  await openSignedIn(page, await tokenFor(member.email, member.password), '/');
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the slideshow waits until the page has loaded', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('slideshow')).toBeAttached();
  await page.waitForLoadState('networkidle');
  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const slides = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('/api/slider/public'));
    return { loadEnd: navigation.loadEventEnd, slidesStart: slides?.startTime ?? -1 };
  });
  expect(timing.slidesStart).toBeGreaterThanOrEqual(timing.loadEnd);
});

test('the landing page downloads no console code, react-query or zod', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByTestId('slideshow')).toBeAttached();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  const dist = process.env.CLIENT_DIST_DIR ?? path.resolve('dist/client');
  for (const script of scripts) {
    // The page-view beacon (client/public/beacon.js) is written by hand: no bundle, no map.
    if (script === '/beacon.js') continue;
    // Each chunk's source map (kept beside the build, never served) names the modules inside it.
    expect((await request.get(`${script}.map`)).status()).toBe(404);
    const map = JSON.parse(await readFile(path.join(dist, `${script}.map`), 'utf8')) as { sources: string[] };
    const forbidden = map.sources.filter((source) =>
      /node_modules\/(@tanstack|zod)\/|features\/(admin|users|media|backgrounds|dashboard)\//.test(source),
    );
    expect(forbidden, script).toEqual([]);
  }
});
