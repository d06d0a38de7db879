import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { drag, notice, outlineOrder, settle, signIn } from './support/courses';
import { ADMIN, E2E_BASE_URL } from './support/env';
import { adminToken, apiAs, confirmPassword, openSignedIn, registerMember } from './support/session';

// axe-core is injected as a script, which the site's own Content-Security-Policy would refuse.
test.use({ bypassCSP: true });
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const TITLE = `Morning Practice ${run}`;
const SLUG = `morning-practice-${run}`;
const OFFER = `Every course, every week: the Architect tier ${run}.`;
const VIDEO = path.resolve(import.meta.dirname, 'fixtures/lesson.mp4');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const SHOTS = process.env.SHOTS_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('the owner builds a course with a video, a text lesson and a download, orders it by drag and keyboard, and publishes it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Courses', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible();

  // The owner's upgrade offer, shown later to free members.
  await page.getByLabel('Sentence').fill(OFFER);
  await page.getByLabel('Link text').fill('See the Architect tier');
  await page.getByLabel('Link address').fill('/join');
  await page.getByRole('button', { name: 'Save upgrade offer' }).click();
  await notice(page, 'Upgrade offer saved.');

  await page.getByLabel('New course title').fill(TITLE);
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Address')).toHaveValue(SLUG);
  await page.getByLabel('Summary').fill('Ten quiet minutes that set up the whole day.');
  await page.getByRole('radio', { name: /^Paid members/ }).check();
  await page.getByRole('button', { name: 'Save course' }).click();
  await notice(page, 'Course saved.');

  await page.getByPlaceholder('New section title, e.g. Week 1').fill('Week 1');
  await page.getByRole('button', { name: 'Add section' }).click();
  const newLesson = page.getByLabel('New lesson in Week 1');
  const addLesson = async (title: string) => {
    await newLesson.fill(title);
    await page.getByRole('button', { name: 'Add lesson' }).click();
    await expect(page.getByRole('heading', { name: `Lesson: ${title}` })).toBeVisible();
  };

  await addLesson('Welcome video');
  await page.getByLabel('Text (Markdown)').fill('## Before you press play\n\nSit **comfortably**.');
  await expect(
    page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Before you press play' }),
  ).toBeVisible();
  await page.getByLabel('Duration (minutes)').fill('1');
  await page.getByRole('button', { name: 'Save lesson' }).click();
  await notice(page, 'Lesson saved.');
  await page.getByLabel('Add a video or audio…').setInputFiles(VIDEO);
  await notice(page, 'Uploaded lesson.mp4.');
  await expect(page.getByText(/^Video · \d+ KB$/)).toBeVisible();

  await addLesson('Reading');
  await page
    .getByLabel('Text (Markdown)')
    .fill('# The reading\n\nOne page, slowly. <script>alert(1)</script>');
  await page.getByRole('button', { name: 'Save lesson' }).click();
  await notice(page, 'Lesson saved.');

  await addLesson('Workbook');
  await page
    .getByLabel('Add downloads…')
    .setInputFiles({ name: 'workbook.pdf', mimeType: 'application/pdf', buffer: PDF });
  await notice(page, 'Uploaded workbook.pdf.');
  await expect.poll(() => outlineOrder(page)).toEqual(['Welcome video', 'Reading', 'Workbook']);

  // By mouse: the workbook to the top.
  await drag(
    page,
    page.getByRole('button', { name: 'Move lesson Workbook' }),
    page.getByRole('button', { name: 'Move lesson Welcome video' }),
  );
  await notice(page, 'New order saved.');
  await expect.poll(() => outlineOrder(page)).toEqual(['Workbook', 'Welcome video', 'Reading']);
  // By keyboard: the reading one place up. Lifted, it is drawn in its slot, not off to the side.
  const reading = page.getByTestId('outline-lesson').filter({ hasText: 'Reading' });
  const slot = (await reading.boundingBox())!;
  await page.getByRole('button', { name: 'Move lesson Reading' }).focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(150);
  const lifted = (await reading.boundingBox())!;
  expect(Math.abs(lifted.x - slot.x)).toBeLessThan(2);
  expect(Math.abs(lifted.y - slot.y)).toBeLessThan(2);
  await page.keyboard.press('ArrowUp');
  await page.waitForTimeout(400);
  expect(Math.abs((await reading.boundingBox())!.x - slot.x)).toBeLessThan(2);
  await page.keyboard.press('Space');
  await expect.poll(() => outlineOrder(page)).toEqual(['Workbook', 'Reading', 'Welcome video']);

  await expectNoSeriousViolations(page, 'the course editor');

  await page.getByLabel(/^Published/).check();
  await page.getByRole('button', { name: 'Save course' }).click();
  await notice(page, `“${TITLE}” is published.`);

  // Every change is in the Activity log.
  const activity = await apiAs<{ data: Array<{ kind: string }> }>(
    await adminToken(),
    'GET',
    '/api/admin/activity?pageSize=100',
  );
  for (const kind of [
    'course.created',
    'course.updated',
    'course.outline',
    'course.lesson',
    'course.file',
    'course.settings',
  ])
    expect(activity.data.map((entry) => entry.kind)).toContain(kind);

  // Search engines and link previews read the course in the HTML itself.
  const html = await (await fetch(`${E2E_BASE_URL}/courses/${SLUG}`)).text();
  expect(html).toContain(`<meta property="og:title" content="${TITLE}" />`);
  expect(html).toContain(
    '<meta name="description" content="Ten quiet minutes that set up the whole day." />',
  );
});

test('the console’s course list fits a phone: every number and Edit on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Courses', exact: true })
    .click();
  const row = page.getByTestId('course-row').filter({ hasText: TITLE });
  await expect(row).toBeVisible();
  await shoot(page, 'console-courses-phone');
  // Every cell (Status, Lessons, Started, Completed) and Edit lie inside the screen.
  const parts = [...(await row.locator('td').all()), row.getByRole('button', { name: `Edit ${TITLE}` })];
  expect(parts.length).toBe(7);
  for (const part of parts) {
    const box = (await part.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a free member sees the paid course locked, with the owner’s upgrade offer', async ({ page }) => {
  const member = await registerMember('free');
  const token = await signIn(member.email, member.password);
  await openSignedIn(page, token, '/courses');
  const card = page.getByTestId('course-card').filter({ hasText: TITLE });
  await expect(card.getByTestId('course-status')).toHaveText('Locked · paid members');
  await expect(page.getByText('Join to enrol')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

  await card.getByRole('link', { name: TITLE }).click();
  await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
  await expect(page.getByTestId('lock-note')).toContainText('Part of the paid membership');
  await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
  // The owner's link is /join, the registration form: a signed-in member goes to the Upgrade instead.
  await expect(page.getByRole('link', { name: 'See the Architect tier' })).toHaveAttribute(
    'href',
    '/dashboard#membership-heading',
  );
  await settle(page);
  await expectNoSeriousViolations(page, 'a locked course page');

  await page.getByRole('link', { name: /Welcome video/ }).click();
  await expect(page.getByRole('heading', { name: 'Welcome video', level: 1 })).toBeVisible();
  await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
  await expect(page.getByTestId('lesson-player')).toHaveCount(0);
  await expect(page.getByText('Sit comfortably')).toHaveCount(0);
  await settle(page);
  await expectNoSeriousViolations(page, 'a locked lesson');

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByText('This is your user dashboard. Your journey continues here.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What the paid membership opens' })).toBeVisible();
  await expect(page.getByTestId('upgrade-offer')).toContainText(OFFER);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('a visitor sees why the paid course is locked and what to do, on a desktop and a phone', async ({
  page,
}) => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/courses/${SLUG}`);
    const lock = page.getByTestId('lock-note');
    await expect(lock).toContainText('Part of the paid membership: join, then upgrade to open it.');
    await expect(lock.getByTestId('upgrade-offer')).toContainText(OFFER);
    await expect(lock.getByRole('link', { name: 'See the Architect tier' })).toHaveAttribute('href', '/join');
    await expect(lock.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/join');
    await expect(lock.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    // Paying needs an account first: no Upgrade button for a visitor.
    await expect(page.getByRole('button', { name: /Upgrade/ })).toHaveCount(0);
    await settle(page);
    await expectNoSeriousViolations(page, `a locked paid course for a visitor at ${viewport.width}px`);
    await shoot(page, `course-locked-visitor-${viewport.width}`);
  }
});

test('a paid member watches, leaves at 40 %, resumes there in another browser, and completes the course', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const member = await registerMember('paid');
  const admin = await adminToken();
  const found = await apiAs<{ data: Array<{ _id: string }> }>(
    admin,
    'GET',
    `/api/admin/users?search=${encodeURIComponent(member.email)}`,
  );
  await apiAs(admin, 'PUT', `/api/admin/users/${found.data[0]!._id}`, { membershipTier: 'paid' });
  const token = await signIn(member.email, member.password);

  await openSignedIn(page, token, `/courses/${SLUG}`);
  await expect(page.getByRole('link', { name: 'Start: Workbook' })).toBeVisible();
  await page.getByRole('link', { name: /Welcome video/ }).click();
  const player = page.getByTestId('lesson-player');
  await expect(player).toBeVisible();
  await expect(page.getByText('Sit comfortably.')).toBeVisible();
  await player.evaluate((video: HTMLVideoElement) => {
    video.muted = true;
    return video.play();
  });
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) >= 4.8, null, {
    timeout: 20_000,
  });
  const src = await player.evaluate((video: HTMLVideoElement) => video.currentSrc);
  // Leaving the lesson (here to the dashboard) saves where it was.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Continue where you left off' })).toBeVisible();
  const saved = async () =>
    (
      await apiAs<{ data: { position: number } }>(
        token,
        'GET',
        `/api/courses/${SLUG}/lessons/${(await lessonIds())[2]}`,
      )
    ).data.position;
  await expect.poll(saved).toBeGreaterThanOrEqual(4.5);
  const position = await saved();
  expect(position).toBeLessThan(6.5);

  // The link the video played, pasted into another browser without this one's cookie, is refused.
  expect(src).toContain('/lesson-files/');
  const stranger = await browser.newContext();
  const pasted = await (await stranger.newPage()).goto(src);
  expect(pasted?.status()).toBe(403);
  await expect(pasted!.text()).resolves.toContain('This link has expired or is not yours.');
  await stranger.close();

  // Another browser, another sign-in: the same place.
  const elsewhere = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await elsewhere.newPage();
  await openSignedIn(phone, await signIn(member.email, member.password), '/dashboard');
  const resume = phone.getByRole('region', { name: 'Continue where you left off' });
  await expect(resume).toContainText('Welcome video');
  await expect(resume).toContainText('Paused at 0:0');
  await settle(phone);
  await expectNoSeriousViolations(phone, 'the member dashboard on a phone');
  await resume.getByRole('link', { name: /Continue/ }).click();
  const resumed = phone.getByTestId('lesson-player');
  await expect
    .poll(() => resumed.evaluate((video: HTMLVideoElement) => video.currentTime))
    .toBeCloseTo(position, 0);
  await settle(phone);
  await expectNoSeriousViolations(phone, 'a lesson on a phone');

  // Complete and continue, through the whole course.
  await phone.getByRole('button', { name: 'Complete and continue' }).click();
  await expect(phone.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
  await phone.getByRole('link', { name: 'Continue: Workbook' }).click();
  await expect(phone.getByRole('link', { name: /workbook\.pdf/ })).toBeVisible();
  await phone.getByRole('button', { name: 'Complete and continue' }).click();
  await expect(phone.getByRole('heading', { name: 'Reading', level: 1, exact: true })).toBeVisible();
  await expect(phone.locator('.lesson-body script')).toHaveCount(0);
  await phone.getByRole('button', { name: 'Complete and continue' }).click();
  await expect(phone.getByRole('heading', { name: 'Welcome video', level: 1 })).toBeVisible();
  await phone.getByRole('link', { name: TITLE }).click();
  await expect(phone.getByText('✓ Completed. Every lesson stays open to review.')).toBeVisible();
  await expect(phone.getByRole('progressbar', { name: `Your progress in ${TITLE}` })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await elsewhere.close();

  // The owner's numbers follow: one member started, one completed.
  const rows = await apiAs<{ data: Array<{ slug: string; started: number; completed: number }> }>(
    admin,
    'GET',
    '/api/admin/courses',
  );
  expect(rows.data.find((row) => row.slug === SLUG)).toMatchObject({ started: 1, completed: 1 });
});

test('the course pages on a phone and a desktop have no serious accessibility violation, nor a mismatch', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const url of ['/courses', `/courses/${SLUG}`]) {
      await page.goto(url);
      await expect(page.locator('h1').first()).toBeVisible();
      await settle(page);
      await expectNoSeriousViolations(page, `${url} at ${viewport.width}px`);
    }
  }
  // Taken over from the server's HTML without a mismatch or an error.
  expect(problems).toEqual([]);
  await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
});

/** The lesson ids of the course in order, as the API gives them to an administrator. */
async function lessonIds(): Promise<string[]> {
  const course = await apiAs<{ data: { sections: Array<{ lessons: Array<{ id: string }> }> } }>(
    await adminToken(),
    'GET',
    `/api/courses/${SLUG}`,
  );
  return course.data.sections.flatMap((s) => s.lessons.map((l) => l.id));
}

test('deleting a course asks for the password again; cancelled, the course stays', async ({ page }) => {
  const title = `Doomed ${Date.now().toString(36)}`;
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Courses', exact: true })
    .click();
  await page.getByLabel('New course title').fill(title);
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  const askToDelete = async () => {
    await page.getByRole('button', { name: 'Delete course' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete course' }).click();
  };
  await askToDelete();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alert').filter({ hasText: 'The course was not deleted.' })).toContainText(
    'your password was not confirmed',
  );
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  await askToDelete();
  await confirmPassword(page, ADMIN.password);
  await notice(page, `Deleted “${title}”.`);
  await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);
});
