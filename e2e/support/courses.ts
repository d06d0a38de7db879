// What the browser tests of courses share.
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_BASE_URL } from './env';

/** The lesson titles of the console's outline, in order. */
export async function outlineOrder(page: Page): Promise<string[]> {
  return page.getByTestId('outline-lesson-title').allInnerTexts();
}

export async function notice(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: text }).first()).toBeVisible();
}

/** Drags `from` onto `to`'s place with the mouse, a step at a time as a hand would. */
export async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  // In the middle of the screen: near an edge the list would scroll itself while dragging.
  await from.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  const x = a.x + a.width / 2;
  const y = a.y + a.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.waitForTimeout(100);
  const dy = b.y + b.height / 2 - 8 - y;
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(x, y + (dy * step) / 12);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(250);
  await page.mouse.up();
}

export async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${E2E_BASE_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { token: string }).token;
}

export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('slideshow')).toBeAttached();
}
