import { mkdir } from 'node:fs/promises';
import { PUBLIC_PAGES } from '@common/public-pages';
import { OWNER_PAGES, SITE_DEFAULTS } from '@common/site';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { waitForMail } from './support/mailbox';
import { adminToken, apiAs, openSignedIn, registerMember } from './support/session';

/**
 * Issue 37: the owner makes the site theirs in the console's Site section, and every page, link
 * preview, structured data block and mail then carries the new name, and none the old.
 */
const SHOTS = process.env.SHOTS_DIR;
const run = Date.now().toString(36);
const NAME = `Calm Harbour ${run}`;
const PHONE = { width: 390, height: 844 };

// axe-core is injected into the page to check what it shows.
test.use({ bypassCSP: true });
// Each test walks the console and several pages, each checked by axe.
test.describe.configure({ timeout: 90_000 });

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function openSitePanel(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  if ((page.viewportSize()?.width ?? 1280) < 1024)
    await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Site', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Site', level: 1 })).toBeVisible();
}

// The other specs meet a fresh site, named as a fresh install is.
test.afterAll(async () => {
  const token = await adminToken();
  await apiAs(token, 'PUT', '/api/admin/site', { ...SITE_DEFAULTS, logo: null, icon: null });
  for (const name of OWNER_PAGES)
    await apiAs(token, 'PUT', `/api/admin/site/pages/${name}`, {
      title: '',
      description: '',
      headline: '',
      markdown: '',
    });
});

test('the owner names the site, refused an unreadable colour, and writes the About page with a live preview', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSitePanel(page);
  await page.getByLabel('Site name').fill(NAME);
  await page.getByLabel('Tagline').fill('Steady steps, calm water.');
  await page.getByLabel('Accent colour', { exact: true }).fill('#fbbf24');
  await expect(
    page.getByText(/White text on this colour has a contrast of 1\.\d\d:1; it needs at least 4\.5:1/),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save site settings' })).toBeDisabled();
  await page.getByLabel('Accent colour', { exact: true }).fill('#1d4ed8');
  await page.getByLabel('Contact e-mail').fill('hello@harbour.example');
  await page.getByRole('button', { name: 'Add a social link' }).click();
  await page.getByLabel('Label 1').fill('Instagram');
  await page.getByLabel('Address 1').fill('https://instagram.com/harbour');
  await page.getByRole('button', { name: 'Save site settings' }).click();
  await expect(page.getByText('Site settings saved: every page shows them now.')).toBeVisible();
  // The console itself follows at once.
  await expect(page.getByRole('complementary').getByText(NAME)).toBeVisible();

  await page.getByRole('button', { name: 'About', exact: true }).click();
  await page.getByLabel('Title', { exact: true }).fill('About the harbour');
  await page.getByLabel('Description for search engines').fill('Who guides you, and how.');
  await page
    .getByLabel('Text (Markdown)')
    .fill('# Anna\n\nI guide **calm** beginnings.<script>alert(1)</script>');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('strong')).toHaveText('calm');
  await expect(preview.locator('script')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'the Site section');
  await shot(page, 'site-panel-desktop');
  await page.getByRole('button', { name: 'Save the About page' }).click();
  await expect(page.getByText('Saved the About page: it shows at /about.')).toBeVisible();

  // A visitor, on the site's own pages.
  const visitor = await page
    .context()
    .browser()!
    .newPage({ viewport: { width: 1280, height: 800 } });
  // The page as sent, with the owner's words and links in it, is taken over without a mismatch.
  const problems: string[] = [];
  visitor.on('pageerror', (error) => problems.push(error.message));
  visitor.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await visitor.goto('/');
  await expect(visitor.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
  await expect(visitor.getByText('Steady steps, calm water.')).toBeVisible();
  await expect(visitor).toHaveTitle(NAME);
  await expect(visitor.getByText(`© 2025 ${NAME}. All rights reserved.`)).toBeVisible();
  await expectNoSeriousViolations(visitor, 'the renamed home page');
  await shot(visitor, 'site-home-desktop');
  await visitor.getByRole('link', { name: 'About' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'About the harbour' })).toBeVisible();
  await expect(visitor.getByRole('heading', { level: 2, name: 'Anna' })).toBeVisible();
  await expect(visitor).toHaveTitle(`About the harbour · ${NAME}`);
  await shot(visitor, 'site-about-desktop');
  await visitor.getByRole('link', { name: 'Contact' }).click();
  await expect(visitor.getByRole('link', { name: 'hello@harbour.example' })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Instagram' }).first()).toBeVisible();
  await expectNoSeriousViolations(visitor, 'the Contact page (its default words)');
  await visitor.goto('/privacy');
  await expect(visitor.getByRole('link', { name: 'hello@harbour.example' })).toBeVisible();
  expect(problems).toEqual([]);
  await visitor.close();
});

test('on a phone: the Site section and the owner’s pages, drawn before any script, readable', async ({
  page,
}) => {
  // The site as the first test leaves it, whether or not it ran.
  await apiAs(await adminToken(), 'PUT', '/api/admin/site', {
    ...SITE_DEFAULTS,
    name: NAME,
    tagline: 'Steady steps, calm water.',
    accentColor: '#1d4ed8',
    contactEmail: 'hello@harbour.example',
    socialLinks: [{ label: 'Instagram', url: 'https://instagram.com/harbour' }],
    logo: null,
    icon: null,
  });
  await page.setViewportSize(PHONE);
  await openSitePanel(page);
  await expect(page.getByLabel('Site name')).toHaveValue(NAME);
  await expectNoSeriousViolations(page, 'the Site section on a phone');
  await shot(page, 'site-panel-phone');

  const visitor = await page.context().browser()!.newPage({ viewport: PHONE, javaScriptEnabled: false });
  for (const path of ['/', '/about', '/terms', '/privacy', '/contact']) {
    await visitor.goto(path);
    // Without JavaScript: the server sent the page with the site's words in it.
    await expect(visitor.getByText(`© 2025 ${NAME}. All rights reserved.`), path).toBeVisible();
    await expect(visitor.getByRole('heading', { level: 1 }), path).not.toHaveText('');
  }
  await visitor.goto('/about');
  await shot(visitor, 'site-about-phone');
  await visitor.goto('/');
  await shot(visitor, 'site-home-phone');
  await visitor.close();
  const withScript = await page.context().browser()!.newPage({ viewport: PHONE });
  await withScript.goto('/privacy');
  await expect(withScript.getByRole('heading', { level: 1, name: 'Privacy' })).toBeVisible();
  await expectNoSeriousViolations(withScript, 'the Privacy page on a phone');
  await shot(withScript, 'site-privacy-phone');
  await withScript.close();
});

test('after a rename no public page, link preview, JSON-LD block or mail carries the old name', async ({
  request,
}) => {
  const token = await adminToken();
  const before = NAME;
  const after = `Bright Shore ${run}`;
  await apiAs(token, 'PUT', '/api/admin/site', {
    ...SITE_DEFAULTS,
    name: after,
    accentColor: '#1d4ed8',
    logo: null,
    icon: null,
  });
  const addresses = [
    ...Object.values(PUBLIC_PAGES).map((page) =>
      page.path.replace(':slug', 'no-such-course').replace(':token', 'x'),
    ),
    '/courses',
    '/api/site',
    '/api/courses',
    '/manifest.webmanifest',
    ...OWNER_PAGES.map((name) => `/api/site/pages/${name}`),
  ];
  // Two server processes serve the suite: the other one learns of the save within a second
  // (shared-state/), then several tries reach both.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (let round = 0; round < 3; round++) {
    for (const url of addresses) {
      const body = await (await request.get(url)).text();
      expect(body, url).not.toContain(before);
      expect(body, url).not.toMatch(/%SITE_[A-Z_]+%/);
    }
  }
  const home = await (await request.get('/')).text();
  expect(home).toContain(`<meta property="og:site_name" content="${after}" />`);
  const courses = await (await request.get('/courses')).text();
  expect(courses).toContain(`<meta property="og:site_name" content="${after}" />`);

  const member = await registerMember(`shore-${run}`);
  await request.post('/api/auth/forgot-password', { data: { email: member.email } });
  const mail = await waitForMail(member.email);
  for (const part of [mail.subject, mail.text, mail.html ?? '']) expect(part).not.toContain(before);
  expect(mail.subject).toBe(`${after}: reset your password`);
  expect(mail.text.trimEnd().endsWith(`— ${after}`)).toBe(true);
});
