import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../test/raw-request';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { DEFAULT_AUTH_LIMITS } from './sign-in-limiter';

/** Security findings 16.1, 16.2 and 16.3: what a stranger can do to the public routes. */
const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function app(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const t = await createTestApp(...args);
  opened.push(t);
  return t;
}

const from = (remoteAddress: string) => ({ remoteAddress });

describe('registrations (16.1)', () => {
  it.each([
    ['without a token', false],
    ['sending the token each registration hands back', true],
  ])('one address gets 429 once over the general limit, %s', async (_label, withToken) => {
    const t = await app({ RATE_LIMIT_MAX: '5' });
    let token: string | undefined;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        ...from('203.0.113.7'),
        headers: withToken && token ? bearer(token) : {},
        payload: { name: `Bot ${i}`, email: `bot${i}@example.com`, password: 'secret1' },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 201) token = response.json().token;
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
  });

  it('has a ceiling per minute across all addresses', async () => {
    const t = await app({}, { authLimits: { ...DEFAULT_AUTH_LIMITS, registrationsPerMinute: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        ...from(`198.51.100.${i + 1}`),
        payload: { name: `Person ${i}`, email: `p${i}@example.com`, password: 'secret1' },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it('one address spends only its share: 429 past it, while another address still registers (issue 25)', async () => {
    const t = await app();
    const register = (address: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        ...from(address),
        payload: { name: `Person ${i}`, email: `share${i}@example.com`, password: 'secret1' },
      });
    const share = DEFAULT_AUTH_LIMITS.registrationsPerClient;
    expect(share).toBeLessThan(DEFAULT_AUTH_LIMITS.registrationsPerMinute);
    for (let i = 0; i < share; i++) expect((await register('203.0.113.80', i)).statusCode).toBe(201);
    const refused = await register('203.0.113.80', share);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many new accounts from your address\. /);
    expect((await register('198.51.100.80', share + 1)).statusCode).toBe(201);
  });

  it('a member token does not lift the limit of an address on the other public routes', async () => {
    const t = await app({ RATE_LIMIT_MAX: '3' });
    const member = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        ...from('203.0.113.9'),
        headers: bearer(member.token),
        payload: { email: `someone${i}@example.com` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('counts IPv6 clients per /64 (16.6)', async () => {
    const t = await app({ RATE_LIMIT_MAX: '2' });
    const statuses: number[] = [];
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:db8:1:2:abcd:1:2:3']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', ...from(address) });
      statuses.push(response.statusCode);
    }
    // Another /64 has its own budget.
    statuses.push(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', ...from('2001:db8:1:3::1') })).statusCode,
    );
    expect(statuses).toEqual([401, 401, 429, 401]);
  });
});

describe('bodies sent to public routes (16.2)', () => {
  const bigLogin = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(20 * 1024) });

  it('answers 413 to a body over 16 KB from its length, before parsing', async () => {
    const t = await app();
    for (const url of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/auth/forgot-password',
      '/api/nowhere',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: bigLogin,
      });
      expect(response.statusCode, url).toBe(413);
      expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it('answers 413 to a streamed body once it passes 16 KB', async () => {
    const t = await app();
    const { Readable } = await import('node:stream');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from([Buffer.from(bigLogin)]),
    });
    expect(response.statusCode).toBe(413);
  });

  it('closes the connection of a GET whose streamed body passes 16 KB, and serves on', async () => {
    const t = await app();
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A GET is answered without its body being read; the limit must still end the connection
    // (the error it raised once went unheard and ended the process).
    const unheard: unknown[] = [];
    const listener = (error: unknown) => unheard.push(error);
    process.prependListener('uncaughtException', listener);
    try {
      const head = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n';
      expect((await rawRequest(url, `${head}5000\r\n${'x'.repeat(20_000)}`)).closed).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(unheard).toEqual([]);
    } finally {
      process.off('uncaughtException', listener);
    }
  });

  it('keeps the Max Request Size for signed-in administrators', async () => {
    const t = await app();
    const admin = await createUser(t, { role: 'admin' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'n'.repeat(20 * 1024), email: 'big@example.com', password: 'secret1' }),
    });
    // Past the body limit: the schema answers (the name is too long), not the 16 KB rule.
    expect(response.statusCode).not.toBe(413);
  });
});

describe('sign-in limits (16.3)', () => {
  const login = (t: TestApp, address: string, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', ...from(address), payload: { email, password } });

  it('a guesser at one address cannot lock the owner out, and its 429 says when to retry', async () => {
    const t = await app();
    const { password } = await createUser(t, { email: 'admin@example.com', role: 'admin' });
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++)
      guesses.push((await login(t, '203.0.113.66', 'admin@example.com', `guess-${i}`)).statusCode);
    expect(guesses.slice(0, 10).every((status) => status === 400)).toBe(true);
    const limited = await login(t, '203.0.113.66', 'admin@example.com', password);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await login(t, '198.51.100.20', 'admin@example.com', password)).statusCode).toBe(200);
  });

  it('past the per-account ceiling, each address may try once and the owner still signs in', async () => {
    const limits = { ...DEFAULT_AUTH_LIMITS, perAccountPerClient: 3, perAccount: 6 };
    const t = await app({}, { authLimits: limits });
    const { password } = await createUser(t, { email: 'owner@example.com' });
    for (const address of ['192.0.2.1', '192.0.2.2'])
      for (let i = 0; i < 3; i++)
        expect((await login(t, address, 'owner@example.com', `bad-${i}`)).statusCode).toBe(400);
    // Over the ceiling: an address that has guessed is refused at once…
    expect((await login(t, '192.0.2.2', 'owner@example.com', 'bad-x')).statusCode).toBe(429);
    // …a fresh one gets one try, not three…
    expect((await login(t, '192.0.2.3', 'owner@example.com', 'bad-y')).statusCode).toBe(400);
    expect((await login(t, '192.0.2.3', 'owner@example.com', 'bad-z')).statusCode).toBe(429);
    // …and the owner, from an address that has not been guessing, is let in.
    expect((await login(t, '198.51.100.1', 'owner@example.com', password)).statusCode).toBe(200);
  });
});
