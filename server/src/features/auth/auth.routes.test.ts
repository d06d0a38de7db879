import { FORGOT_PASSWORD_MESSAGE } from '@common/schemas/auth';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, readOutbox, type TestApp } from '../../test/test-app';
import { DEFAULT_AUTH_LIMITS } from './sign-in-limiter';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://members.example.com' });
});
afterEach(() => t.close());

const register = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object });
const login = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object });

describe('POST /api/auth/register', () => {
  it('creates a free, active member and answers a token whose payload carries user.id and user.role', async () => {
    const response = await register({ name: 'Ada Lovelace', email: 'Ada@Example.com', password: 'secret1' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.msg).toEqual(expect.any(String));
    expect(decodeProtectedHeader(body.token).alg).toBe('HS256');
    const payload = decodeJwt(body.token) as { user: { id: string; role: string }; exp: number };
    expect(payload.user.role).toBe('user');
    expect(payload.user.id).toMatch(/^[0-9a-f]{24}$/);
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('ignores a role sent in the body', async () => {
    const body = (
      await register({ name: 'Mallory', email: 'm@example.com', password: 'secret1', role: 'admin' })
    ).json();
    expect((decodeJwt(body.token) as { user: { role: string } }).user.role).toBe('user');
    const stored = await t.store.collection('users').findOne({ email: 'm@example.com' });
    expect(stored).toMatchObject({ role: 'user', membershipTier: 'free', status: 'active' });
  });

  it('refuses a second account for the same e-mail in any letter case with a clear 409', async () => {
    await register({ name: 'One', email: 'same@example.com', password: 'secret1' });
    const response = await register({ name: 'Two', email: 'SAME@example.COM', password: 'secret2' });
    expect(response.statusCode).toBe(409);
    expect(response.json().msg).toBe('An account with this email already exists.');
  });

  it.each([
    [{ email: 'a@example.com', password: 'secret1' }, 'Name is required'],
    [{ name: 'A', password: 'secret1' }, 'Email is required'],
    [{ name: 'A', email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email address'],
    [{ name: 'A', email: 'a@example.com', password: '12345' }, 'Password must be at least 6 characters'],
    [{ name: 'A', email: { $gt: '' }, password: 'secret1' }, 'email must be a string'],
  ])('answers 400 with a message for %j', async (payload, message) => {
    const response = await register(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION', msg: message, message });
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password whatever the e-mail letter case', async () => {
    const { user, password } = await createUser(t, { email: 'grace@example.com' });
    const response = await login({ email: 'Grace@Example.com', password });
    expect(response.statusCode).toBe(200);
    expect(response.json().msg).toBe('Login successful');
    expect((decodeJwt(response.json().token) as { user: { id: string } }).user.id).toBe(user._id);
  });

  it('says the same for a wrong password and an unknown e-mail', async () => {
    await createUser(t, { email: 'grace@example.com' });
    const wrong = await login({ email: 'grace@example.com', password: 'nope-nope' });
    const unknown = await login({ email: 'nobody@example.com', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('Invalid email or password.');
    expect(unknown.json().msg).toBe(wrong.json().msg);
  });

  it('never signs anyone in through operator injection', async () => {
    await createUser(t, { email: 'victim@example.com' });
    for (const payload of [
      { email: { $ne: null }, password: { $ne: null } },
      { email: 'victim@example.com', password: { $gt: '' } },
      { email: { $regex: '.*' }, password: 'x' },
    ]) {
      const response = await login(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().token).toBeUndefined();
    }
  });

  it('refuses a suspended member', async () => {
    const { password } = await createUser(t, { email: 'sus@example.com', status: 'suspended' });
    const response = await login({ email: 'sus@example.com', password });
    expect(response.statusCode).toBe(403);
    expect(response.json().msg).toMatch(/suspended/);
  });

  it('limits attempts per e-mail with a 429 and a clear message', async () => {
    await createUser(t, { email: 'target@example.com' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await login({ email: 'target@example.com', password: `guess-${i}` })).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    const limited = await login({ email: 'target@example.com', password: 'guess-11' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('limits attempts per client across e-mails', async () => {
    const limited = await createTestApp(
      {},
      { authLimits: { ...DEFAULT_AUTH_LIMITS, perClient: 3, windowMs: 60_000 } },
    );
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `someone${i}@example.com`, password: 'whatever' },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('a suspended member loses access on the next request', async () => {
    const member = await createUser(t);
    const before = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(member.token) });
    expect(before.statusCode).toBe(200);
    expect(before.json().data.email).toBe(member.user.email);
    await t.store.collection('users').updateById(member.user._id, { status: 'suspended' });
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(member.token) });
    expect(after.statusCode).toBe(403);
    expect(after.json().msg).toMatch(/suspended/);
  });

  it('rejects forged, tampered and alg=none tokens', async () => {
    const { token } = await createUser(t, { role: 'admin' });
    const [header, payload, signature] = token.split('.');
    const elevated = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), user: { id: 'x', role: 'admin', tv: 0 } }),
    ).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    for (const bad of [`${header}.${elevated}.${signature}`, `${none}.${payload}.`, 'garbage', `${token}x`]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(bad) });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('password reset', () => {
  const forgot = (email: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/auth/reset-password/${token}`, payload: { password } });
  const linkIn = (mail: { text: string }) =>
    /https:\/\/members\.example\.com\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';

  it('answers known and unknown e-mails alike and mails a link only to the known one', async () => {
    await createUser(t, { email: 'known@example.com' });
    const unknown = await forgot('unknown@example.com');
    const known = await forgot('KNOWN@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    expect(unknown.json()).toEqual(known.json());
    const mails = await readOutbox(t.dataDir, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('known@example.com');
    expect(linkIn(mails[0]!).length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
  });

  it('sets the new password once, ends older sessions, and stores only a hash of the token', async () => {
    const { user, token: oldSession } = await createUser(t, {
      email: 'reset@example.com',
      password: 'old-password',
    });
    await forgot('reset@example.com');
    const token = linkIn((await readOutbox(t.dataDir, 1))[0]!);
    const stored = await t.store.collection('users').findById(user._id);
    expect(JSON.stringify(stored)).not.toContain(token);

    const done = await reset(token, 'new-password');
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toEqual(expect.any(String));
    expect((await login({ email: 'reset@example.com', password: 'new-password' })).statusCode).toBe(200);
    expect((await login({ email: 'reset@example.com', password: 'old-password' })).statusCode).toBe(400);

    const again = await reset(token, 'third-password');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Password reset link is invalid or has expired.');

    const oldToken = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(oldSession) });
    expect(oldToken.statusCode).toBe(401);
  });

  it('refuses an expired link', async () => {
    const { user } = await createUser(t, { email: 'late@example.com' });
    await forgot('late@example.com');
    const token = linkIn((await readOutbox(t.dataDir, 1))[0]!);
    await t.store
      .collection('users')
      .updateById(user._id, { resetTokenExpiresAt: new Date(Date.now() - 1000) });
    expect((await reset(token, 'new-password')).statusCode).toBe(400);
  });

  it('validates the new password and the token shape', async () => {
    expect((await reset('x'.repeat(43), '123')).json().message).toBe(
      'Password must be at least 6 characters',
    );
    expect((await reset('short', 'long-enough')).statusCode).toBe(400);
    expect((await forgot({ $ne: null })).statusCode).toBe(400);
  });
});

describe('the /api/admin scope', () => {
  it('answers 401 without a token and 403 for a member, even where no route exists', async () => {
    const member = await createUser(t);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/no-such-thing' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().msg).toBe('Please sign in to continue.');
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/admin/no-such-thing',
      headers: bearer(member.token),
    });
    expect(forbidden.statusCode).toBe(403);
    const admin = await createUser(t, { role: 'admin' });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/admin/no-such-thing',
      headers: bearer(admin.token),
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('what leaves the server', () => {
  it('never includes a password hash, reset data or __v', async () => {
    const response = await register({ name: 'Ada', email: 'ada@example.com', password: 'secret1' });
    expect(response.body).not.toMatch(/argon2|password|__v|reset/i);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(response.json().token),
    });
    expect(me.json().data).toMatchObject({ name: 'Ada', email: 'ada@example.com', role: 'user' });
    expect(me.body).not.toMatch(/argon2|password|__v|reset|tokenVersion/i);
  });

  it('refuses an oversized body from its length before parsing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      // Over the default Max Request Size of the Node.js panel (50mb).
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(51 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 400 for malformed JSON and 404 JSON for unknown API routes', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });

  it('GET /api/health answers 200 JSON', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, status: 'ok', store: 'embedded' });
  });
});
