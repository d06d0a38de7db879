import type { Page } from '@playwright/test';
import { ADMIN, E2E_BASE_URL } from './env';

const tokens = new Map<string, string>();

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

/** Calls the API as `token`; throws on a non-2xx answer. */
export async function apiAs<T = unknown>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
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
