import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { waitForMail } from './support/mailbox';
import {
  adminToken,
  answerConfirmation,
  apiAs,
  openSignedIn,
  registerMember,
  tokenFor,
} from './support/session';

/** The console's Mail section (the shown panel follows the sidebar, not the address). */
async function openMailSection(page: Page, phone: boolean) {
  await openSignedIn(page, await adminToken(), '/admin/dashboard');
  if (phone) await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('button', { name: 'Mail', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Mail', level: 1 })).toBeVisible();
}

/** Screenshots of each screen, desktop and phone, for review (not compared). */
const SHOTS = process.env.MAIL_SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test.use({ bypassCSP: true });

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(device, () => {
    test.use({ viewport });

    test('the owner writes an announcement, sees its preview and count, sends it, and follows its progress', async ({
      page,
    }) => {
      const member = await registerMember(`announce-${device}`);
      await openMailSection(page, device === 'phone');
      const subject = `Spring news ${device} ${Date.now()}`;
      const form = page.getByRole('region', { name: 'New announcement' });
      await form.getByLabel('Subject').fill(subject);
      await form.getByLabel('Text (Markdown)').fill('Hello **everyone**: a new course is open.');
      await expect(form.getByRole('region', { name: 'Preview' }).locator('strong')).toHaveText('everyone');
      await expect(page.getByTestId('recipient-count')).toContainText(
        /\d+ member\(s\) will receive it \(Every member\)/,
      );
      await shot(page, `console-mail-${device}`);
      await expectNoSeriousViolations(page, `the Mail section (${device})`);

      await form.getByRole('button', { name: 'Send', exact: true }).click();
      expect(await answerConfirmation(page, true)).toContain(subject);
      const row = page.getByTestId('announcement').filter({ hasText: subject });
      await expect(row).toContainText('Sent', { timeout: 15_000 });
      const mail = await waitForMail(member.email, 15_000);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain('/api/mail/unsubscribe/');
      await shot(page, `console-mail-sent-${device}`);
    });

    test('a member chooses on /account, and the unsubscribe link shows a page before it changes anything', async ({
      page,
    }) => {
      const member = await registerMember(`choices-${device}`);
      const subject = `Choices ${device} ${Date.now()}`;
      await apiAs(await adminToken(), 'POST', '/api/admin/mail/announcements', {
        subject,
        markdown: 'One more thing.',
        segment: { kind: 'everyone' },
      });
      const mail = await waitForMail(member.email, 15_000);
      const link = /(http\S+\/api\/mail\/unsubscribe\/\S+)/.exec(mail.text)![1]!;

      await page.goto(link);
      await expect(page.getByRole('heading', { name: /Your mail from/ })).toBeVisible();
      await shot(page, `unsubscribe-page-${device}`);
      await expectNoSeriousViolations(page, `the unsubscribe page (${device})`);

      await openSignedIn(page, await tokenFor(member.email, member.password), '/account');
      const announcements = page.getByLabel('Announcements from the site');
      // Opening the link changed nothing.
      await expect(announcements).toBeChecked();
      await page.goto(link);
      await page.getByRole('button', { name: 'Unsubscribe from announcements' }).click();
      await expect(page.getByRole('status')).toHaveText('You are unsubscribed.');

      await page.goto('/account');
      await expect(announcements).not.toBeChecked();
      await announcements.check();
      await expect(page.getByText('Saved.')).toBeVisible();
      await page.reload();
      await expect(announcements).toBeChecked();
      await page.getByRole('heading', { name: 'Mail from us' }).scrollIntoViewIfNeeded();
      await shot(page, `account-mail-${device}`);
      await expectNoSeriousViolations(page, `the account page (${device})`);
    });
  });
}
