import { SITE_DEFAULTS } from '@common/site';
import { expect, test } from '@playwright/test';
import { ADMIN } from './support/env';
import { waitForMail } from './support/mailbox';
import { registerMember } from './support/session';

const storedToken = (page: import('@playwright/test').Page) =>
  page.evaluate(() => localStorage.getItem('token'));

test('the landing page shows the brand, a Sign In link and the 2025 footer', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: SITE_DEFAULTS.name })).toBeVisible();
  await expect(page.getByText(`© 2025 ${SITE_DEFAULTS.name}. All rights reserved.`)).toBeVisible();
  await page.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/join');
  await expect(page.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
});

test('registering sends only name, e-mail and password, stores the token and goes home', async ({ page }) => {
  await page.goto('/join');
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  await expect(page.getByText('Begin your journey of transformation.')).toBeVisible();
  await expect(page.getByText('Payment Details (For Architect Tier)')).toBeVisible();
  const email = `joiner-${Date.now()}@e2e.test`;
  await page.getByLabel('Full Name').fill('Jo Joiner');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Create Password').fill('joiner-pass');
  await page.getByLabel('Card Number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 30');
  await page.getByLabel('CVC').fill('123');
  await expect(page.getByLabel('Expiry')).toHaveAttribute('placeholder', 'MM / YY');

  const request = page.waitForRequest('**/api/auth/register');
  await page.getByRole('button', { name: 'Complete Enrollment' }).click();
  const sent = (await request).postDataJSON();
  expect(Object.keys(sent).sort()).toEqual(['email', 'name', 'password']);
  expect(JSON.stringify(sent)).not.toContain('4242');

  await expect(page).toHaveURL(/\/$/);
  expect(await storedToken(page)).toBeTruthy();
  // Said once, not again on a reload.
  const said = page
    .getByRole('status')
    .filter({ hasText: 'Welcome, Jo Joiner: your account is ready and you are signed in.' });
  await expect(said).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toBeVisible();
  await expect(said).toHaveCount(0);
});

test('a registration failure shows the server message', async ({ page }) => {
  const existing = await registerMember('dup');
  await page.goto('/join');
  await page.getByLabel('Full Name').fill('Someone');
  await page.getByLabel('Email Address').fill(existing.email);
  await page.getByLabel('Create Password').fill('another-pass');
  await page.getByRole('button', { name: 'Complete Enrollment' }).click();
  await expect(page.getByRole('alert')).toHaveText('An account with this email already exists.');
});

test('a member signs in, reaches the dashboard and logs out', async ({ page }) => {
  const member = await registerMember();
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  const password = page.getByLabel('Password', { exact: true });
  await password.fill(member.password);
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('This is your user dashboard. Your journey continues here.')).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await storedToken(page)).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password shows the server message and stays on the sign-in page', async ({ page }) => {
  const member = await registerMember('wrong');
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('the administrator signs in to the console and logs out', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const sidebar = page.getByRole('navigation', { name: 'Console sections' });
  for (const label of ['Dashboard', 'User Management', 'Background Manager', 'Media Manager']) {
    await expect(sidebar.getByRole('button', { name: label, exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await storedToken(page)).toBeNull();
});

test('guards send visitors and members without the right role to sign in', async ({ page }) => {
  for (const path of ['/dashboard', '/admin/dashboard', '/admin/database/members']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  const member = await registerMember('guard');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a forgotten password is reset through the e-mailed link', async ({ page }) => {
  const member = await registerMember('forgetful');
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await page.getByLabel('Email').fill(member.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'If an account with that email exists, a password reset link has been sent.',
  );

  const mail = await waitForMail(member.email);
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Enter New Password' })).toBeVisible();

  await page.getByLabel('New Password', { exact: true }).fill('brand-new-pass');
  await page.getByLabel('Confirm New Password').fill('different-pass');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match');

  await page.getByLabel('Confirm New Password').fill('brand-new-pass');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('status')).toHaveText('Password reset successful! Redirecting to login...');
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill('brand-new-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link worked once; a second use is refused with the server's words.
  await page.goto(link!);
  await page.getByLabel('New Password', { exact: true }).fill('third-pass');
  await page.getByLabel('Confirm New Password').fill('third-pass');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password reset link is invalid or has expired.');
});

test('unknown addresses show a real not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('public pages exist for courses and terms', async ({ page }) => {
  await page.goto('/courses');
  await expect(page.getByRole('heading', { name: 'Courses' })).toBeVisible();
  await page.goto('/join');
  await page.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { name: 'Terms of Service' })).toBeVisible();
});
