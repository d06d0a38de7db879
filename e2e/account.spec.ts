import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { ADMIN, E2E_BASE_URL } from './support/env';
import { waitForMail } from './support/mailbox';
import { answerConfirmation, openSignedIn, registerMember } from './support/session';

// axe-core is injected as a script, which the site's own Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/** A fresh sign-in through the API: a session of its own, as another browser would have. */
async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${E2E_BASE_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, `sign-in as ${email}`).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const meStatus = async (token: string) =>
  (await fetch(`${E2E_BASE_URL}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

async function openAccount(page: Page, token: string): Promise<void> {
  await openSignedIn(page, token, '/dashboard');
  await expect(page.getByText('This is your user dashboard. Your journey continues here.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();
}

test('a member sees their membership and changes their name', async ({ page }) => {
  const member = await registerMember('renamer');
  await openAccount(page, await signIn(member.email, member.password));
  const membership = page.getByRole('region', { name: 'Membership' });
  await expect(membership.getByText('Free', { exact: true })).toBeVisible();
  await expect(membership.getByText('Active', { exact: true })).toBeVisible();
  const today = new Date().toLocaleDateString('en-GB', { dateStyle: 'long' });
  await expect(membership.getByText(today)).toBeVisible();
  await expectNoSeriousViolations(page, '/account');

  await membership.getByLabel('Name').fill('Grace Hopper');
  await membership.getByRole('button', { name: 'Save name' }).click();
  await expect(membership.getByRole('status')).toHaveText('Name saved.');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Membership' }).getByLabel('Name')).toHaveValue(
    'Grace Hopper',
  );
});

test('changing the password signs out the other session and keeps this one', async ({ page, browser }) => {
  const member = await registerMember('repass');
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await openSignedIn(otherPage, await signIn(member.email, member.password), '/account');
    await expect(otherPage.getByRole('heading', { name: 'Your Account' })).toBeVisible();

    await openAccount(page, await signIn(member.email, member.password));
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    // Registration, the other browser and this one.
    await expect(sessions.getByRole('listitem')).toHaveCount(3);
    await expect(sessions.getByText('This browser', { exact: true })).toHaveCount(1);

    const section = page.getByRole('region', { name: 'Password' });
    await section.getByLabel('Current password').fill(member.password);
    await section.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await section.getByLabel('Confirm new password').fill('brand-new-pass');
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByRole('status')).toHaveText(
      'Password changed. You were signed out everywhere else.',
    );

    // The other browser's next request is refused and it is sent to sign in.
    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/login$/);
    // This one stays signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Account' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Where you are signed in' }).getByRole('listitem'),
    ).toHaveCount(1);
    await signIn(member.email, 'brand-new-pass');
  } finally {
    await other.close();
  }
});

test('a new e-mail address is used only once the link mailed to it is opened', async ({ page }) => {
  const member = await registerMember('mover');
  const newEmail = `moved-${Date.now()}@e2e.test`;
  await openAccount(page, await signIn(member.email, member.password));
  const section = page.getByRole('region', { name: 'E-mail address' });
  await section.getByLabel('New e-mail address').fill(newEmail);
  await section.getByLabel('Current password').fill(member.password);
  await section.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(section.getByRole('status')).toHaveText(
    `We sent a confirmation link to ${newEmail}. Your e-mail address changes when you open it.`,
  );
  await page.reload();
  await expect(
    page.getByText(`Waiting for confirmation: open the link we sent to ${newEmail}.`),
  ).toBeVisible();
  await signIn(member.email, member.password);

  const notice = await waitForMail(member.email);
  expect(notice.text).toContain(newEmail);
  const mail = await waitForMail(newEmail);
  const link = /http:\/\/127\.0\.0\.1:\d+\/confirm-email#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole('status')).toHaveText(`Your e-mail address is now ${newEmail}.`);
  // The token leaves the address bar at once.
  expect(page.url()).not.toContain('token');
  await signIn(newEmail, member.password);
  await page.getByRole('link', { name: 'Back to your account' }).click();
  await expect(page.getByText(`You sign in with ${newEmail}.`, { exact: false })).toBeVisible();
});

test('a member cancels a pending e-mail change, and a new password cancels the next one', async ({
  page,
}) => {
  const member = await registerMember('canceller');
  const newEmail = `cancelled-${Date.now()}@e2e.test`;
  await openAccount(page, await signIn(member.email, member.password));
  const section = page.getByRole('region', { name: 'E-mail address' });
  const ask = async (email: string, password: string) => {
    await section.getByLabel('New e-mail address').fill(email);
    await section.getByLabel('Current password').fill(password);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(
      section.getByText(`Waiting for confirmation: open the link we sent to ${email}.`),
    ).toBeVisible();
  };
  await ask(newEmail, member.password);
  const link = /http:\/\/127\.0\.0\.1:\d+\/confirm-email#token=[A-Za-z0-9_-]+/.exec(
    (await waitForMail(newEmail)).text,
  )?.[0];
  expect(link).toBeTruthy();

  await section.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByRole('status')).toHaveText(
    `The change to ${newEmail} is cancelled: its link no longer works.`,
  );
  await expect(section.getByText(/Waiting for confirmation/)).toHaveCount(0);

  const later = `later-${Date.now()}@e2e.test`;
  await ask(later, member.password);
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill(member.password);
  await password.getByLabel('New password', { exact: true }).fill('another-pass-1');
  await password.getByLabel('Confirm new password').fill('another-pass-1');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(
    section.getByText(
      `The change of your e-mail address to ${later} was cancelled because your password was changed`,
      { exact: false },
    ),
  ).toBeVisible();

  await page.goto(link!);
  await expect(page.getByRole('alert')).toHaveText('This confirmation link is invalid or has expired.');
});

test('a member downloads their data as a JSON file', async ({ page }) => {
  const member = await registerMember('exporter');
  await openAccount(page, await signIn(member.email, member.password));
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.json$/);
  const text = await readFile((await file.path())!, 'utf8');
  const data = JSON.parse(text);
  expect(data.user).toMatchObject({ email: member.email, name: member.name, membershipTier: 'free' });
  expect(data.sessions.length).toBeGreaterThanOrEqual(1);
  expect(text).not.toMatch(/argon2|"password"|hash/i);
});

test('a member deletes their account, lands on / signed out and cannot sign in again', async ({ page }) => {
  const member = await registerMember('leaver');
  await openAccount(page, await signIn(member.email, member.password));
  const section = page.getByRole('region', { name: 'Delete account' });
  const button = section.getByRole('button', { name: 'Delete my account' });
  await section.getByLabel('Your password').fill(member.password);
  await expect(button).toBeDisabled();
  await section.getByLabel('Type DELETE to confirm').fill('DELETE');
  await button.click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Your account has been deleted and you are signed out everywhere.' }),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const response = await fetch(`${E2E_BASE_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  expect(response.status).toBe(400);
});

test('an administrator is told another administrator deletes their account', async ({ page }) => {
  await openSignedIn(page, await signIn(ADMIN.email, ADMIN.password), '/account');
  const section = page.getByRole('region', { name: 'Delete account' });
  await expect(section.getByText(/another administrator can delete it in the console/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Delete my account' })).toHaveCount(0);
});

test('Sign out everywhere and Logout end the sessions on the server', async ({ page }) => {
  const member = await registerMember('everywhere');
  const elsewhere = await signIn(member.email, member.password);
  const here = await signIn(member.email, member.password);
  await openAccount(page, here);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
  expect(await meStatus(elsewhere)).toBe(401);
  expect(await meStatus(here)).toBe(401);

  const again = await signIn(member.email, member.password);
  // A new tab: the helper sets the token once per tab.
  const tab = await page.context().newPage();
  await openSignedIn(tab, again, '/dashboard');
  await tab.getByRole('button', { name: 'Logout' }).click();
  await expect(tab).toHaveURL(`${E2E_BASE_URL}/`);
  await expect.poll(() => meStatus(again)).toBe(401);
});

test('an administrator signs a member out everywhere from User Management', async ({ page }) => {
  const member = await registerMember('lostphone');
  const phone = await signIn(member.email, member.password);
  await openSignedIn(page, await signIn(ADMIN.email, ADMIN.password), '/admin/dashboard');
  await page.getByRole('button', { name: 'User Management' }).click();
  await page.getByPlaceholder('Search by name or email...').fill(member.email);
  const button = page.getByRole('button', { name: `Sign out ${member.name} everywhere` });
  await expect(button).toHaveCount(1);
  await button.click();
  expect(await answerConfirmation(page, true)).toContain('every browser and device');
  await expect(page.getByRole('button', { name: `Signed out ${member.name} everywhere` })).toHaveText(
    'Signed out',
  );
  await expect(
    page.getByRole('status').filter({ hasText: 'Signed out everywhere: 2 sessions ended.' }),
  ).toBeAttached();
  expect(await meStatus(phone)).toBe(401);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the account and confirmation pages fit and have no serious accessibility violation', async ({
    page,
  }) => {
    const member = await registerMember('phone');
    await openSignedIn(page, await signIn(member.email, member.password), '/account');
    await expect(page.getByRole('heading', { name: 'Membership' })).toBeVisible();
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousViolations(page, '/account (phone)');
    await page.goto('/confirm-email#token=not-a-real-token-but-long-enough');
    await expect(page.getByRole('alert')).toHaveText('This confirmation link is invalid or has expired.');
    await expectNoSeriousViolations(page, '/confirm-email (phone)');
  });
});
