import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mailbox';
import { adminToken, openSignedIn, registerMember } from './support/session';

test('the Dashboard shows outgoing mail: sent today and nothing waiting, never a link', async ({ page }) => {
  const member = await registerMember('mailed');
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(member.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'If an account with that email exists, a password reset link has been sent.',
  );
  await waitForMail(member.email);

  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  const card = page.getByRole('heading', { name: 'Outgoing mail' }).locator('xpath=ancestor::div[2]');
  await expect(page.getByRole('heading', { name: 'Outgoing mail' })).toBeVisible();
  await expect(card.getByText('Sent through the mail server in SMTP_URL.')).toBeVisible();
  await expect
    .poll(async () => Number(await page.getByTestId('mail-sent-today').textContent()))
    .toBeGreaterThan(0);
  await expect(page.getByTestId('mail-waiting')).toHaveText('0');
  await expect(page.getByTestId('mail-failed')).toHaveText('0');
  expect(await page.content()).not.toMatch(/reset-password\//);
});
