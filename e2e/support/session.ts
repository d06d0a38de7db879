import { expect, type Page } from '@playwright/test';
import { ADMIN, E2E_BASE_URL } from './env';

const tokens = new Map<string, string>();
/** The password of each token made here, so that apiAs can confirm it for a system change. */
const passwords = new Map<string, string>();

/**
 * A sign-in token through the real API, kept for the rest of the worker so that the suite
 * stays well inside the sign-in rate limit, while its session lives (a test that clicks Logout
 * ends it on the server).
 */
export async function tokenFor(email: string, password: string): Promise<string> {
  const cached = tokens.get(email);
  if (cached && (await isLive(cached))) return cached;
  const response = await fetch(`${E2E_BASE_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok)
    throw new Error(`Sign-in as ${email} failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  tokens.set(email, token);
  passwords.set(token, password);
  return token;
}

async function isLive(token: string): Promise<boolean> {
  const response = await fetch(`${E2E_BASE_URL}/api/auth/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.ok;
}

export const adminToken = () => tokenFor(ADMIN.email, ADMIN.password);

/** Opens `path` already signed in with `token`, as if the person had signed in before. */
export async function openSignedIn(page: Page, token: string, path: string): Promise<void> {
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('e2e-token-set')) {
      localStorage.setItem('token', value);
      sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
  await page.goto(path);
}

const proofs = new Map<string, string>();

/** A password-confirmation proof for `token` (valid 10 minutes; the suite keeps one per token). */
async function proofFor(token: string): Promise<string | undefined> {
  const password = passwords.get(token);
  if (!password) return undefined;
  const response = await fetch(`${E2E_BASE_URL}/api/auth/reauth`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!response.ok) throw new Error(`Password confirmation failed: ${response.status}`);
  const { proof } = (await response.json()) as { proof: string };
  proofs.set(token, proof);
  return proof;
}

/**
 * Calls the API as `token`; throws on a non-2xx answer. A system change refused for want of
 * the password confirmation is confirmed (for tokens made by tokenFor) and sent again.
 */
export async function apiAs<T = unknown>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const send = (proof?: string) =>
    fetch(`${E2E_BASE_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(proof ? { 'x-reauth': proof } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let response = await send(proofs.get(token));
  if (
    response.status === 403 &&
    (
      await response
        .clone()
        .json()
        .catch(() => ({}))
    ).code === 'REAUTH_REQUIRED'
  ) {
    const proof = await proofFor(token);
    if (proof) response = await send(proof);
  }
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Answers the console's password dialog, which opens before a change that can take the site. */
export async function confirmPassword(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

let counter = 0;
/** A fresh member registered through the public API. */
export async function registerMember(
  prefix = 'member',
): Promise<{ email: string; password: string; name: string }> {
  counter += 1;
  const person = {
    name: `${prefix} ${counter}`,
    email: `${prefix}-${Date.now()}-${counter}@e2e.test`,
    password: 'member-password-1',
  };
  const response = await fetch(`${E2E_BASE_URL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  if (!response.ok) throw new Error(`Registration failed: ${response.status}`);
  return person;
}

/**
 * Answers the console's own confirmation dialog (never the browser's `confirm`): `accept` clicks
 * its action, else Cancel. Resolves with the dialog's title and text.
 */
export async function answerConfirmation(page: Page, accept: boolean): Promise<string> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  const text = await dialog.innerText();
  const buttons = dialog.getByRole('button');
  await (accept
    ? buttons.filter({ hasNotText: /^Cancel$/ })
    : buttons.filter({ hasText: /^Cancel$/ })
  ).click();
  await expect(dialog).toBeHidden();
  return text;
}
