import { rm } from 'node:fs/promises';
import path from 'node:path';
import { EMAIL_CHANGE_SENT } from '@common/schemas/account';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, readOutbox, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://members.example.com' });
});
afterEach(() => t.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (token: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/account${url}`, headers: bearer(token), payload });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const stored = (id: string) => t.store.collection<UserDoc>('users').findById(id);
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
const linkIn = (text: string) =>
  /https:\/\/members\.example\.com\/confirm-email#token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
const confirm = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/confirm-email', payload: { token } });
/** Nothing a member is sent back may hold a password, a hash or a token's secret. */
const SECRETS = /argon2|"password"|hash|resetToken|emailChangeToken/i;

describe('GET /api/account', () => {
  it('answers the signed-in member’s record, tier, status, joined date and sessions, never a hash', async () => {
    const member = await createUser(t, { name: 'Ada', membershipTier: 'paid' });
    const response = await call(member.token, 'GET', '');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.user).toMatchObject({
      _id: member.user._id,
      name: 'Ada',
      email: member.user.email,
      membershipTier: 'paid',
      status: 'active',
      createdAt: member.user.createdAt.toISOString(),
    });
    expect(data.pendingEmail).toBeNull();
    expect(data.sessions).toEqual([expect.objectContaining({ current: true, ip: '127.0.0.1' })]);
    expect(response.body).not.toMatch(SECRETS);
  });

  it('answers 401 without a token, for every account route', async () => {
    for (const [method, url] of [
      ['GET', ''],
      ['PUT', '/name'],
      ['POST', '/email'],
      ['PUT', '/password'],
      ['POST', '/sign-out-everywhere'],
      ['GET', '/export'],
      ['POST', '/delete'],
    ] as const) {
      const response = await t.app.inject({ method, url: `/api/account${url}`, payload: {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('no call reaches another account', () => {
  it('ignores ids and e-mails of others in the body and acts on the signed-in member only', async () => {
    const member = await createUser(t, { password: 'member-pass' });
    const victim = await createUser(t, { name: 'Victim', password: 'victim-pass' });
    const other = { id: victim.user._id, _id: victim.user._id, userId: victim.user._id };
    expect((await call(member.token, 'PUT', '/name', { ...other, name: 'Renamed' })).statusCode).toBe(200);
    expect(
      (
        await call(member.token, 'PUT', '/password', {
          ...other,
          currentPassword: 'member-pass',
          newPassword: 'changed-pass',
        })
      ).statusCode,
    ).toBe(200);
    // The member's token cannot be used as someone else's: a victim's id in the URL is no route.
    expect((await call(member.token, 'GET', `/${victim.user._id}`)).statusCode).toBe(404);
    expect((await call(member.token, 'POST', '/sign-out-everywhere', other)).statusCode).toBe(200);
    expect(await stored(victim.user._id)).toMatchObject({ name: 'Victim', password: victim.user.password });
    expect((await me(victim.token)).statusCode).toBe(200);
    expect((await stored(member.user._id))?.name).toBe('Renamed');
  });
});

describe('PUT /api/account/name', () => {
  it('saves a trimmed name and refuses an empty one', async () => {
    const member = await createUser(t);
    const saved = await call(member.token, 'PUT', '/name', { name: '  Grace Hopper ' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.name).toBe('Grace Hopper');
    expect(saved.body).not.toMatch(SECRETS);
    const empty = await call(member.token, 'PUT', '/name', { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Name is required');
  });
});

describe('e-mail change', () => {
  it('mails a link to the new address and a notice to the old; the change waits for the link', async () => {
    const member = await createUser(t, { email: 'old@example.com', password: 'member-pass' });
    const asked = await call(member.token, 'POST', '/email', {
      email: 'New@Example.com',
      password: 'member-pass',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(EMAIL_CHANGE_SENT('new@example.com'));
    expect((await stored(member.user._id))?.email).toBe('old@example.com');
    expect((await call(member.token, 'GET', '')).json().data.pendingEmail).toBe('new@example.com');

    const mails = await readOutbox(t.dataDir, 2);
    const toNew = mails.find((m) => m.to === 'new@example.com')!;
    const toOld = mails.find((m) => m.to === 'old@example.com')!;
    expect(toOld.text).toContain('new@example.com');
    expect(linkIn(toOld.text)).toBeUndefined();
    const token = linkIn(toNew.text)!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(JSON.stringify(await stored(member.user._id))).not.toContain(token);

    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your e-mail address is now new@example.com.');
    expect((await login('new@example.com', 'member-pass')).statusCode).toBe(200);
    expect((await login('old@example.com', 'member-pass')).statusCode).toBe(400);
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This confirmation link is invalid or has expired.');
  });

  it('answers an address another account has exactly as a free one, and mails that address no link', async () => {
    await createUser(t, { email: 'taken@example.com' });
    const member = await createUser(t, { email: 'me@example.com', password: 'member-pass' });
    const free = await call(member.token, 'POST', '/email', {
      email: 'free@example.com',
      password: 'member-pass',
    });
    await readOutbox(t.dataDir, 2);
    await rm(path.join(t.dataDir, 'outbox'), { recursive: true });
    const taken = await call(member.token, 'POST', '/email', {
      email: 'taken@example.com',
      password: 'member-pass',
    });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.json()).toEqual({ ...free.json(), message: EMAIL_CHANGE_SENT('taken@example.com') });
    const mails = await readOutbox(t.dataDir, 2);
    expect(mails.map((m) => m.to).sort()).toEqual(['me@example.com', 'taken@example.com']);
    expect(mails.every((m) => linkIn(m.text) === undefined)).toBe(true);
    expect((await stored(member.user._id))?.email).toBe('me@example.com');
  });

  it('refuses a confirmation once the address was taken meanwhile, and an expired link', async () => {
    const member = await createUser(t, { email: 'me@example.com', password: 'member-pass' });
    await call(member.token, 'POST', '/email', { email: 'wanted@example.com', password: 'member-pass' });
    const token = linkIn((await readOutbox(t.dataDir, 2)).find((m) => m.to === 'wanted@example.com')!.text)!;
    await createUser(t, { email: 'wanted@example.com' });
    const refused = await confirm(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This address already belongs to another account, so it cannot be used.',
    );
    expect((await stored(member.user._id))?.email).toBe('me@example.com');

    await rm(path.join(t.dataDir, 'outbox'), { recursive: true });
    await call(member.token, 'POST', '/email', { email: 'later@example.com', password: 'member-pass' });
    const late = linkIn((await readOutbox(t.dataDir, 2)).find((m) => m.to === 'later@example.com')!.text)!;
    await t.store
      .collection<UserDoc>('users')
      .updateById(member.user._id, { emailChangeExpiresAt: new Date(Date.now() - 1000) });
    expect((await confirm(late)).statusCode).toBe(400);
  });

  it('needs the current password, and refuses the address the member already has', async () => {
    const member = await createUser(t, { email: 'me@example.com', password: 'member-pass' });
    const wrong = await call(member.token, 'POST', '/email', { email: 'x@example.com', password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect.');
    const same = await call(member.token, 'POST', '/email', {
      email: 'ME@example.com',
      password: 'member-pass',
    });
    expect(same.json().message).toBe('This is already your e-mail address.');
  });
});

describe('PUT /api/account/password', () => {
  it('needs the current password and the registration minimum of 6', async () => {
    const member = await createUser(t, { password: 'member-pass' });
    const wrong = await call(member.token, 'PUT', '/password', {
      currentPassword: 'x',
      newPassword: 'long-enough',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect.');
    const short = await call(member.token, 'PUT', '/password', {
      currentPassword: 'member-pass',
      newPassword: '12345',
    });
    expect(short.json().message).toBe('Password must be at least 6 characters');
    const done = await call(member.token, 'PUT', '/password', {
      currentPassword: 'member-pass',
      newPassword: 'new-pass',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).not.toMatch(SECRETS);
    expect((await login(member.user.email, 'new-pass')).statusCode).toBe(200);
    expect((await login(member.user.email, 'member-pass')).statusCode).toBe(400);
  });

  it('counts wrong current passwords against the same budget as the sign-in form', async () => {
    const member = await createUser(t, { password: 'member-pass' });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await call(member.token, 'PUT', '/password', {
        currentPassword: `guess-${i}`,
        newPassword: 'new-pass',
      });
      codes.push(response.statusCode);
    }
    expect(codes.slice(0, 10).every((code) => code === 400)).toBe(true);
    expect(codes[10]).toBe(429);
    // The guesses made through the account count for sign-in too: the right password waits.
    expect((await login(member.user.email, 'member-pass')).statusCode).toBe(429);
  });
});

describe('POST /api/account/sign-out-everywhere', () => {
  it('ends every session of the member, this one included', async () => {
    const member = await createUser(t);
    const second = (await login(member.user.email, member.password)).json().token;
    const response = await call(member.token, 'POST', '/sign-out-everywhere');
    expect(response.json()).toMatchObject({ success: true, ended: 2 });
    expect((await me(member.token)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
  });
});

describe('GET /api/account/export', () => {
  it('downloads the member’s record and sessions as a JSON file, without any hash', async () => {
    const member = await createUser(t, { name: 'Ada' });
    const response = await call(member.token, 'GET', '/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json();
    expect(data.user).toMatchObject({ _id: member.user._id, name: 'Ada', email: member.user.email });
    expect(data.sessions).toHaveLength(1);
    expect(response.body).not.toMatch(SECRETS);
  });
});

describe('POST /api/account/delete', () => {
  it('needs the password and the typed confirmation, then deletes the account and its sessions', async () => {
    const member = await createUser(t, { password: 'member-pass' });
    const second = (await login(member.user.email, 'member-pass')).json().token;
    const unconfirmed = await call(member.token, 'POST', '/delete', {
      password: 'member-pass',
      confirmation: 'yes',
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().message).toBe('Type DELETE to confirm');
    const wrong = await call(member.token, 'POST', '/delete', { password: 'nope', confirmation: 'DELETE' });
    expect(wrong.json().message).toBe('Current password is incorrect.');
    expect(await stored(member.user._id)).not.toBeNull();

    const done = await call(member.token, 'POST', '/delete', {
      password: 'member-pass',
      confirmation: 'DELETE',
    });
    expect(done.statusCode).toBe(200);
    expect(await stored(member.user._id)).toBeNull();
    expect(await t.store.collection('sessions').count({ userId: member.user._id })).toBe(0);
    expect((await me(second)).statusCode).toBe(401);
    expect((await login(member.user.email, 'member-pass')).statusCode).toBe(400);
  });

  it('refuses an administrator, saying another administrator does it in the console', async () => {
    const admin = await createUser(t, { role: 'admin', password: 'admin-pass' });
    await createUser(t, { role: 'admin' });
    const refused = await call(admin.token, 'POST', '/delete', {
      password: 'admin-pass',
      confirmation: 'DELETE',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Administrators cannot delete their own account here. Another administrator can delete it in the console.',
    );
    expect(await stored(admin.user._id)).not.toBeNull();
  });
});

describe('the Activity log', () => {
  const entries = async (actorId: string) =>
    (
      await t.store
        .collection<{ actorId: string; kind: string; before?: unknown; after?: unknown } & UserDoc>(
          'activity',
        )
        .find({ actorId }, { sort: { createdAt: 1, _id: 1 } })
    ).map((entry) => entry.kind);

  it('holds one entry for each change a member makes, the export carries them, and no secret is in them', async () => {
    const member = await createUser(t, { email: 'log@example.com', password: 'member-pass' });
    expect((await call(member.token, 'PUT', '/name', { name: 'Logged' })).statusCode).toBe(200);
    expect(
      (await call(member.token, 'POST', '/email', { email: 'moved@example.com', password: 'member-pass' }))
        .statusCode,
    ).toBe(200);
    const mails = await readOutbox(t.dataDir, 2);
    expect((await confirm(linkIn(mails.find((m) => m.to === 'moved@example.com')!.text)!)).statusCode).toBe(
      200,
    );
    expect(
      (
        await call(member.token, 'PUT', '/password', {
          currentPassword: 'member-pass',
          newPassword: 'member-pass-2',
        })
      ).statusCode,
    ).toBe(200);
    expect(await entries(member.user._id)).toEqual([
      'account.renamed',
      'account.email-requested',
      'account.email-changed',
      'account.password',
    ]);

    const exported = (await call(member.token, 'GET', '/export')).json();
    expect(exported.activity.map((entry: { kind: string }) => entry.kind)).toEqual([
      'account.password',
      'account.email-changed',
      'account.email-requested',
      'account.renamed',
    ]);
    expect(JSON.stringify(exported)).not.toMatch(SECRETS);

    expect((await call(member.token, 'POST', '/sign-out-everywhere')).statusCode).toBe(200);
    expect((await entries(member.user._id)).at(-1)).toBe('account.signed-out');
  });

  it('records a deletion and an administrator signing someone out everywhere', async () => {
    const member = await createUser(t, { password: 'member-pass' });
    const admin = await createUser(t, { role: 'admin' });
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${member.user._id}/sessions`,
      headers: bearer(admin.token),
    });
    expect(ended.statusCode).toBe(200);
    expect((await entries(admin.user._id)).at(-1)).toBe('sessions.ended');

    const again = (await login(member.user.email, 'member-pass')).json().token;
    const done = await call(again, 'POST', '/delete', { password: 'member-pass', confirmation: 'DELETE' });
    expect(done.statusCode).toBe(200);
    expect(await entries(member.user._id)).toEqual(['account.deleted']);
  });
});
