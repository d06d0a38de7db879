import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, readOutbox, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

/**
 * A pending e-mail change is someone's way into the account: the owner's recovery (a new
 * password, a reset, Sign out everywhere) and the owner themselves must be able to end it. And
 * the mails it sends must not let a member flood a stranger's inbox with words of their own.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://members.example.com' });
});
afterEach(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/account${url}`, headers: bearer(token), payload });
const login = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).json()
    .token as string;
const confirm = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/confirm-email', payload: { token } });
const linkIn = (text: string) =>
  /https:\/\/members\.example\.com\/confirm-email#token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
const resetLinkIn = (text: string) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
const INVALID_LINK = 'This confirmation link is invalid or has expired.';

/** The attacker, who knows the password, asks to move the account to their address. */
async function hijackStarted() {
  const owner = await createUser(t, { email: 'owner@example.com', password: 'owner-pass' });
  const asked = await call(owner.token, 'POST', '/email', {
    email: 'attacker@example.com',
    password: 'owner-pass',
  });
  expect(asked.statusCode).toBe(200);
  const mails = await readOutbox(t.dataDir, 2);
  const link = linkIn(mails.find((m) => m.to === 'attacker@example.com')!.text)!;
  await rm(path.join(t.dataDir, 'outbox'), { recursive: true });
  return { owner, link };
}

async function expectVoided(link: string, token: string, reason: string) {
  const late = await confirm(link);
  expect(late.statusCode).toBe(400);
  expect(late.json().message).toBe(INVALID_LINK);
  const account = (await call(token, 'GET', '')).json().data;
  expect(account.pendingEmail).toBeNull();
  expect(account.user.email).toBe('owner@example.com');
  expect(account.cancelledEmailChange).toMatchObject({ email: 'attacker@example.com', reason });
}

describe("the owner's recovery voids a pending e-mail change", () => {
  it('a password change voids it: the old link answers invalid or expired, and /account says so', async () => {
    const { owner, link } = await hijackStarted();
    const changed = await call(owner.token, 'PUT', '/password', {
      currentPassword: 'owner-pass',
      newPassword: 'owner-pass-2',
    });
    expect(changed.statusCode).toBe(200);
    await expectVoided(link, owner.token, 'password');
  });

  it('Sign out everywhere voids it', async () => {
    const { owner, link } = await hijackStarted();
    expect((await call(owner.token, 'POST', '/sign-out-everywhere')).statusCode).toBe(200);
    await expectVoided(link, await login('owner@example.com', 'owner-pass'), 'sign-out');
  });

  it('a password reset voids it', async () => {
    const { link } = await hijackStarted();
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'owner@example.com' },
    });
    const reset = resetLinkIn((await readOutbox(t.dataDir, 1))[0]!.text)!;
    const done = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/reset-password/${reset}`,
      payload: { password: 'owner-pass-3' },
    });
    expect(done.statusCode).toBe(200);
    await expectVoided(link, await login('owner@example.com', 'owner-pass-3'), 'reset');
  });

  it('an administrator setting a new password in the console voids it', async () => {
    const { link } = await hijackStarted();
    const admin = await createUser(t, { email: 'admin@example.com', role: 'admin' });
    const member = await t.store.collection<UserDoc>('users').findOne({
      email: 'owner@example.com',
    });
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member!._id}`,
      headers: bearer(admin.token),
      payload: { password: 'owner-pass-4' },
    });
    expect(set.statusCode).toBe(200);
    await expectVoided(link, await login('owner@example.com', 'owner-pass-4'), 'password');
  });

  it('a new request after a cancellation clears the notice', async () => {
    const { owner } = await hijackStarted();
    await call(owner.token, 'POST', '/sign-out-everywhere');
    const token = await login('owner@example.com', 'owner-pass');
    await call(token, 'POST', '/email', { email: 'mine@example.com', password: 'owner-pass' });
    const account = (await call(token, 'GET', '')).json().data;
    expect(account.pendingEmail).toBe('mine@example.com');
    expect(account.cancelledEmailChange).toBeNull();
  });
});

describe('DELETE /api/account/email-change', () => {
  it('lets the member cancel a pending change: the link stops working', async () => {
    const { owner, link } = await hijackStarted();
    const cancelled = await call(owner.token, 'DELETE', '/email-change');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().message).toBe(
      'The change to attacker@example.com is cancelled: its link no longer works.',
    );
    expect((await confirm(link)).json().message).toBe(INVALID_LINK);
    const account = (await call(owner.token, 'GET', '')).json().data;
    expect(account.pendingEmail).toBeNull();
    // The member did it: nothing to tell them later.
    expect(account.cancelledEmailChange).toBeNull();
    const again = await call(owner.token, 'DELETE', '/email-change');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('No change of e-mail address is waiting for confirmation.');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/account/email-change' })).statusCode).toBe(401);
  });
});

describe('confirming a new address', () => {
  it('voids a reset link mailed to the old one', async () => {
    const { link } = await hijackStarted();
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'owner@example.com' },
    });
    const reset = resetLinkIn((await readOutbox(t.dataDir, 1))[0]!.text)!;
    expect((await confirm(link)).statusCode).toBe(200);
    const used = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/reset-password/${reset}`,
      payload: { password: 'taken-over' },
    });
    expect(used.statusCode).toBe(400);
    expect(used.json().message).toBe('Password reset link is invalid or has expired.');
  });
});

describe('e-mail change mails', () => {
  const ask = (token: string, email: string, password: string) =>
    call(token, 'POST', '/email', { email, password });

  it('reach one address at most 10 times in 15 minutes; the rest are refused with a clear 429', async () => {
    const member = await createUser(t, { email: 'spammer@example.com', password: 'spam-pass' });
    const codes: number[] = [];
    let refused: Awaited<ReturnType<typeof ask>> | undefined;
    for (let i = 0; i < 30; i++) {
      const response = await ask(member.token, 'stranger@example.com', 'spam-pass');
      codes.push(response.statusCode);
      if (response.statusCode === 429) refused = response;
    }
    expect(codes.filter((code) => code === 200)).toHaveLength(10);
    expect(codes.slice(10).every((code) => code === 429)).toBe(true);
    expect(refused!.json().message).toBe('Too many e-mail change requests. Please try again in 15 minutes.');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const mails = await readOutbox(t.dataDir, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readOutbox(t.dataDir, 0)).filter((m) => m.to === 'stranger@example.com')).toHaveLength(10);
    expect(mails).toHaveLength(20);
  });

  it('count per recipient across accounts, and per account across recipients', async () => {
    const first = await createUser(t, { password: 'pass-one' });
    const second = await createUser(t, { password: 'pass-two' });
    for (let i = 0; i < 6; i++)
      expect((await ask(first.token, 'target@example.com', 'pass-one')).statusCode).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await ask(second.token, 'target@example.com', 'pass-two')).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);

    const roamer = await createUser(t, { password: 'pass-three' });
    for (let i = 0; i < 10; i++)
      expect((await ask(roamer.token, `r${i}@example.com`, 'pass-three')).statusCode).toBe(200);
    expect((await ask(roamer.token, 'r10@example.com', 'pass-three')).statusCode).toBe(429);
  });

  it('greet the new address neutrally, without any text the member typed', async () => {
    const member = await createUser(t, {
      name: 'WIN a prize at https://prize.example',
      email: 'member@example.com',
      password: 'member-pass',
    });
    expect((await ask(member.token, 'someone@example.com', 'member-pass')).statusCode).toBe(200);
    const toNew = (await readOutbox(t.dataDir, 2)).find((m) => m.to === 'someone@example.com')!;
    expect(toNew.text).toMatch(/^Hello,/);
    expect(toNew.text).not.toContain('WIN a prize');
    expect(toNew.text).not.toContain('prize.example');
    expect(linkIn(toNew.text)).toBeTruthy();
  });
});
