import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@common/errors';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { createTestApp, createUser, type TestApp } from '../test/test-app';
import { registerErrorHandler } from './error-handler';

/** An error answer as the client reads it: the envelope, a code of the closed list, its status. */
function expectClosedError(response: LightMyRequestResponse, code?: ErrorCode): void {
  const body = response.json();
  const where = `${response.statusCode} ${response.body}`;
  expect(ERROR_CODES, where).toContain(body.code);
  expect(response.statusCode, where).toBe(ERROR_STATUS[body.code as ErrorCode]);
  expect(body, where).toMatchObject({ success: false, message: expect.any(String) });
  expect(body.msg, where).toBe(body.message);
  if (code) expect(body.code, where).toBe(code);
}

describe('the error handler answers only codes of the closed list', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false, bodyLimit: 64 });
    registerErrorHandler(app);
    app.get('/app-error/:code', async (request) => {
      throw new AppError((request.params as { code: ErrorCode }).code, 'Refused.');
    });
    app.get('/unknown-code', async () => {
      // A code that slipped past the types (a cast, a plain object from elsewhere).
      throw new AppError('NOT_A_CODE' as ErrorCode, 'Refused.');
    });
    app.get('/library-error', async () => {
      throw Object.assign(new Error('I am a teapot'), { statusCode: 418, code: 'TEAPOT' });
    });
    app.get('/crash', async () => {
      throw new Error('secret detail');
    });
    app.post(
      '/validated',
      { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
      async () => ({ success: true }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(ERROR_CODES)('answers an AppError %s with its own status', async (code) => {
    expectClosedError(await app.inject({ url: `/app-error/${code}` }), code);
  });

  it('answers an AppError with a code outside the list as INTERNAL, without its words', async () => {
    const response = await app.inject({ url: '/unknown-code' });
    expectClosedError(response, 'INTERNAL');
    expect(response.body).not.toContain('Refused.');
  });

  it("maps another library's status outside the list to INTERNAL, never forwarding its code", async () => {
    const response = await app.inject({ url: '/library-error' });
    expectClosedError(response, 'INTERNAL');
    expect(response.body).not.toContain('TEAPOT');
  });

  it('answers a crash as INTERNAL without its details', async () => {
    const response = await app.inject({ url: '/crash' });
    expectClosedError(response, 'INTERNAL');
    expect(response.body).not.toContain('secret detail');
  });

  it("maps Fastify's own refusals: validation, bad JSON, wrong content type, body too large", async () => {
    const json = { 'content-type': 'application/json' };
    expectClosedError(
      await app.inject({ method: 'POST', url: '/validated', headers: json, payload: '{}' }),
      'VALIDATION',
    );
    expectClosedError(
      await app.inject({ method: 'POST', url: '/validated', headers: json, payload: '{"name":' }),
      'VALIDATION',
    );
    expectClosedError(
      await app.inject({
        method: 'POST',
        url: '/validated',
        headers: { 'content-type': 'application/x-unheard-of' },
        payload: 'x',
      }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectClosedError(
      await app.inject({
        method: 'POST',
        url: '/validated',
        headers: json,
        payload: JSON.stringify({ name: 'x'.repeat(200) }),
      }),
      'PAYLOAD_TOO_LARGE',
    );
  });
});

describe('every refusal of the real app carries a code of the closed list', () => {
  let t: TestApp;
  let member = '';
  beforeAll(async () => {
    t = await createTestApp();
    member = (await createUser(t)).token;
  });
  afterAll(() => t.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it.each([
    ['a path no route answers', { url: '/api/no-such-thing' }, 'NOT_FOUND'],
    ['an unknown media path, to a stranger', { url: '/api/media/no-such-thing' }, 'UNAUTHENTICATED'],
    ['the console without a token', { url: '/api/admin/users' }, 'UNAUTHENTICATED'],
    ['the web-server panel without a token', { url: '/api/system/config' }, 'UNAUTHENTICATED'],
    [
      'a broken token',
      { url: '/api/admin/users', headers: { authorization: 'Bearer not.a.token' } },
      'UNAUTHENTICATED',
    ],
    [
      'bad JSON',
      {
        method: 'POST' as const,
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      },
      'VALIDATION',
    ],
    [
      'a refused field',
      {
        method: 'POST' as const,
        url: '/api/auth/login',
        payload: { email: 'not an address', password: 'x' },
      },
      'VALIDATION',
    ],
    [
      "a stranger's body over the public limit",
      {
        method: 'POST' as const,
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(20_000) }),
      },
      'PAYLOAD_TOO_LARGE',
    ],
  ] as const)('%s', async (_name, request, code) => {
    expectClosedError(await t.app.inject(request), code);
  });

  it("a member's call to the console is NOT_ADMIN, on every admin scope", async () => {
    for (const url of ['/api/admin/users', '/api/system/config', '/api/media/files', '/api/playlists']) {
      expectClosedError(await t.app.inject({ url, headers: bearer(member) }), 'NOT_ADMIN');
    }
  });
});
