import { mkdir } from 'node:fs/promises';
import type { MembersFigures } from '@common/schemas/figures';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_BASE_URL } from './support/env';
import { adminToken, apiAs, openSignedIn } from './support/session';

/**
 * The owner's figures on the console's Dashboard: members over a period with the change against
 * the period before, where they came from, visits counted without cookies, each chart with its
 * table; the chart code never on a public page. Desktop and phone, axe clean.
 */
const SHOTS = process.env.SHOTS_DIR;
const run = Date.now().toString(36);
const SOURCE = `newsletter-${run}`;
const COURSE = `Figures course ${run}`;
const DAY_MS = 24 * 60 * 60 * 1000;
const lastThirtyDays = () => {
  const to = new Date().toISOString().slice(0, 10);
  return { from: new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10), to, step: 'day' };
};

// axe-core is injected into the page to check what it shows.
test.use({ bypassCSP: true });

test.beforeAll(async () => {
  await courseOfTwoLessons();
  for (const n of [1, 2]) {
    const response = await fetch(`${E2E_BASE_URL}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Figures ${run} ${n}`,
        email: `figures-${run}-${n}@e2e.test`,
        password: 'member-password-1',
        arrival: { ref: SOURCE },
      }),
    });
    expect(response.status).toBe(201);
  }
});

/** A published members' course of two lessons, made through the console's API. */
async function courseOfTwoLessons(): Promise<void> {
  const admin = await adminToken();
  type Course = { data: { id: string; sections: Array<{ id: string }> } };
  const { data: created } = await apiAs<Course>(admin, 'POST', '/api/admin/courses', { title: COURSE });
  await apiAs(admin, 'PUT', `/api/admin/courses/${created.id}`, { access: 'members', published: true });
  const { data: course } = await apiAs<Course>(admin, 'POST', `/api/admin/courses/${created.id}/sections`, {
    title: 'Week 1',
  });
  for (const title of ['Arrive', 'Settle'])
    await apiAs(
      admin,
      'POST',
      `/api/admin/courses/${created.id}/sections/${course.sections[0]!.id}/lessons`,
      {
        title,
      },
    );
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('a public page counts its view with the beacon, and never loads the chart code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const beacon = page.waitForRequest((request) => request.url().endsWith('/api/visits'));
  await page.goto('/?utm_source=e2e');
  const sent = await beacon;
  expect(sent.postData()).toBe('/');
  expect((await sent.response())?.status()).toBe(204);
  expect(await page.evaluate(() => sessionStorage.getItem('arrival'))).toBe('{"utm_source":"e2e"}');
  expect(scripts.filter((url) => /figures-section|uPlot|uplot/i.test(url))).toEqual([]);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).toEqual([]);
});

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the Dashboard shows the figures, with a table for each chart (${device})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const token = await adminToken();
    const expected = (
      await apiAs<{ data: MembersFigures }>(
        token,
        'GET',
        `/api/admin/figures/members?${new URLSearchParams(lastThirtyDays())}`,
      )
    ).data;
    await openSignedIn(page, token, '/admin/dashboard');
    const figures = page.getByRole('region', { name: 'Figures' });
    await expect(figures.getByRole('heading', { name: 'Members', exact: true })).toBeVisible();
    await expect(figures.getByTestId('figure-signups')).toHaveText(
      expected.period.signups.toLocaleString('en-US'),
    );
    await expect(figures.getByTestId('figure-total')).toHaveText(
      expected.period.total.toLocaleString('en-US'),
    );
    await expect(figures.locator('.figures-chart canvas').first()).toBeVisible();

    // Where members come from: the bars, and the same figures as a table.
    const sources = figures.getByRole('region', { name: 'Where members come from' });
    await sources.getByRole('button', { name: 'Show table' }).click();
    const row = sources.getByRole('row', { name: new RegExp(SOURCE) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').first()).toHaveText('2');
    await expectNoSeriousViolations(page, `Dashboard figures (${device})`);
    await shoot(page, `figures-dashboard-${device}`);

    // A course's lesson-by-lesson figures, as bars and as a table.
    const courses = figures.getByRole('region', { name: 'Courses', exact: true });
    await courses.getByRole('button', { name: COURSE }).click();
    await expect(courses.getByText(`${COURSE}: lesson by lesson`)).toBeVisible();
    await courses.getByRole('button', { name: 'Show table' }).click();
    await expect(courses.getByRole('row', { name: /Arrive/ })).toBeVisible();
    await expect(courses.getByRole('button', { name: 'Download members (CSV)' })).toBeVisible();
    await shoot(page, `figures-course-${device}`);

    // A period that ends before it starts is refused in plain words.
    await figures.getByLabel('Period').selectOption('custom');
    await figures.getByLabel('From', { exact: true }).fill('2026-03-02');
    await figures.getByLabel('To', { exact: true }).fill('2026-03-01');
    await expect(figures.getByRole('alert').first()).toHaveText('The period ends before it starts.');
  });
}
