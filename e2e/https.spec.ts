import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { ADMIN } from './support/env';
import { adminToken, confirmPassword, openSignedIn } from './support/session';

// The HTTPS card of the Nginx panel. Obtaining a certificate for real (Pebble) is tested on the
// server (certificates.system.test.ts); here: what the owner sees, a refused domain, a plain failure.
// axe is added to the page as a script: the page's own policy would refuse it.
test.use({ bypassCSP: true });

async function openNginx(page: Page) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Nginx' })
    .click();
  await expect(page.getByRole('heading', { name: 'HTTPS certificate' })).toBeVisible();
}

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the HTTPS card refuses a domain with ";" at the field and says plainly why no certificate came (${device})`, async ({
    page,
  }) => {
    // The console's sections are reached from the wide layout; the card is then looked at in the device's.
    await openNginx(page);
    await page.setViewportSize(viewport);
    let posted = 0;
    await page.route('**/api/system/certificate', (route) => {
      if (route.request().method() === 'POST') posted++;
      return route.continue();
    });
    const domain = page.getByLabel('Domain name');
    await domain.fill('coach.example.com; include /etc/passwd');
    await page.getByRole('button', { name: 'Get a certificate' }).click();
    await expect(page.getByText('Domain name must not hold ";"')).toBeVisible();
    await expect(domain).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(0);
    await page.getByRole('heading', { name: 'HTTPS certificate' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/work/shots/seo-https/https-refused-${device}.png` });

    // nginx is not running in this run: the order does not start, and the notice says what to do.
    await domain.fill('coach.example.com');
    await page.getByLabel('Certificate authority').selectOption('letsencrypt-staging');
    await page.getByRole('button', { name: 'Get a certificate' }).click();
    await confirmPassword(page, ADMIN.password);
    await expect(page.getByText(/No certificate: nginx is not running/)).toBeVisible();
    expect(posted).toBeGreaterThan(0);
    await expectNoSeriousViolations(page, `the Nginx panel's HTTPS card (${device})`);
    await page.screenshot({ path: `/work/shots/seo-https/https-card-${device}.png`, fullPage: true });
  });
}
