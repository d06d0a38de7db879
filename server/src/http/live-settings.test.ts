import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures, multipart } from '../test/media-fixtures';
import { bearer, createTestApp, createUser, saveAppServerSettings, type TestApp } from '../test/test-app';

/** The settings of the Node.js panel that apply at once, each observed from outside, with no restart. */

let t: TestApp;
afterEach(() => t?.close());

async function start(env: Record<string, string> = {}, logger?: { level: string; stream: Writable }) {
  t = await createTestApp({ LOG_LEVEL: '', ...env }, { logger });
  const admin = (await createUser(t, { role: 'admin' })).token;
  return admin;
}

const save = (admin: string, payload: Record<string, unknown>) => saveAppServerSettings(t, admin, payload);

const preflight = (origin: string) =>
  t.app.inject({
    method: 'OPTIONS',
    url: '/api/auth/login',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });

describe('CORS origin', () => {
  it('lets any site call by default, and only the listed origins once a list is saved', async () => {
    const admin = await start();
    const open = await preflight('https://anywhere.example');
    expect(open.statusCode).toBe(204);
    expect(open.headers['access-control-allow-origin']).toBe('*');
    expect(open.headers['access-control-allow-methods']).toContain('DELETE');

    await save(admin, { corsOrigin: 'https://allowed.example, http://localhost:3000' });
    expect(
      (await preflight('https://elsewhere.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    const listed = await preflight('http://localhost:3000');
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(listed.headers.vary).toMatch(/Origin/);
    const call = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(call.statusCode).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('max request size', () => {
  // The Max Request Size is for signed-in calls; strangers' bodies have a fixed 16 KB (body-limit.ts).
  let adminToken = '';
  const login = (payload: string | Readable, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { 'content-type': 'application/json', ...bearer(adminToken), ...headers },
      payload,
    });

  it('refuses bodies over the saved size with 413 before parsing, also when they are streamed', async () => {
    const admin = await start();
    adminToken = admin;
    // Malformed on purpose: a 413 instead of a 400 shows the body was never parsed.
    const broken = (size: number) => `{"email": ${'x'.repeat(size - 12)}`;
    expect((await login(broken(2048))).statusCode).toBe(400);

    await save(admin, { maxRequestSize: '1kb' });
    const big = await login(broken(2048));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await login(broken(1000))).statusCode).toBe(400);

    // No Content-Length: counted while it streams in.
    const chunks = Array.from({ length: 8 }, () => Buffer.from('x'.repeat(256)));
    const streamed = await login(Readable.from(chunks), { 'transfer-encoding': 'chunked' });
    expect(streamed.statusCode).toBe(413);
    const small = await login(Readable.from([Buffer.from('{"email":"a@example.com","password":"pw"}')]), {
      'transfer-encoding': 'chunked',
    });
    expect(small.statusCode).toBe(400); // parsed: wrong password format, not too large

    // Media uploads keep their own 200MB limit.
    const form = multipart({ mediaType: 'video', basePath: path.join(t.dataDir, 'media') }, [
      { name: 'clip.mp4', content: fixtures.mp4(8192) },
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(admin) },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json().uploadedCount).toBe(1);
  });
});

describe('general rate limit', () => {
  let registrations = 0;
  const register = () => {
    registrations += 1;
    return t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Visitor', email: `visitor${registrations}@example.com`, password: 'visitor-pass' },
    });
  };
  const me = (token?: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: token ? bearer(token) : {} });

  it('with max 5 the sixth request in the window gets 429, while an administrator is never counted', async () => {
    const admin = await start();
    const member = (await createUser(t)).token;
    await save(admin, { rateLimitMax: 5 });

    for (let i = 0; i < 5; i++) expect((await register()).statusCode).toBe(201);
    const sixth = await register();
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/Too many requests/),
    });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(800);

    for (let i = 0; i < 12; i++) {
      const list = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(admin) });
      expect(list.statusCode).toBe(200);
    }
    // The slideshow's reloads and the health check are never counted.
    expect((await t.app.inject({ method: 'GET', url: '/api/slider/public' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    // A signed-in member from the same address has a budget of their own.
    for (let i = 0; i < 5; i++) expect((await me(member)).statusCode).toBe(200);
    expect((await me(member)).statusCode).toBe(429);
  });

  it('starts a new window when the saved window has passed', async () => {
    const admin = await start();
    await save(admin, { rateLimitWindow: 1000, rateLimitMax: 1 });
    expect((await me()).statusCode).toBe(401);
    expect((await me()).statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await me()).statusCode).toBe(401);
  });
});

describe('log level', () => {
  function capture() {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    });
    return { lines, stream, said: (text: string) => lines.some((line) => line.msg === text) };
  }
  const SAVED = 'Application-server settings saved';

  it('changes what is logged at once', async () => {
    const log = capture();
    const admin = await start({}, { level: 'info', stream: log.stream });
    await save(admin, { logLevel: 'warn' });
    expect(t.app.log.level).toBe('warn');
    expect(log.said(SAVED)).toBe(false); // an info line, no longer written

    await save(admin, { logLevel: 'verbose' });
    expect(t.app.log.level).toBe('trace');
    expect(log.said(SAVED)).toBe(true);
    // Request loggers follow too: Fastify's own per-request lines are written at this level.
    const before = log.lines.length;
    await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(log.lines.length).toBeGreaterThan(before);
  });

  it('stays as LOG_LEVEL says when that is set', async () => {
    const log = capture();
    const admin = await start({ LOG_LEVEL: 'warn' }, { level: 'warn', stream: log.stream });
    const answer = await save(admin, { logLevel: 'debug' });
    expect(answer.ignored).toEqual(['logLevel']);
    expect(t.app.log.level).toBe('warn');
    expect(log.said(SAVED)).toBe(false);
  });
});
