import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../test/test-app';
import { registerErrorHandler } from './error-handler';
import { RequestLogController } from './request-log';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  userId?: string;
  err?: { message: string; stack: string };
  [key: string]: unknown;
}

/** A pino destination that keeps every line it is given, parsed. */
function captureLogs(level = 'info') {
  const lines: LogLine[] = [];
  return { lines, logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } } };
}

const requestLines = (lines: LogLine[]) => lines.filter((l) => l.path !== undefined);

describe('request log of the real app', () => {
  const logs = captureLogs('info');
  let t: TestApp;
  let dist = '';
  beforeAll(async () => {
    // No built client here: page requests answer 503, a server-side failure.
    dist = await mkdtemp(path.join(tmpdir(), 'no-dist-'));
    t = await createTestApp({ CLIENT_DIST_DIR: dist }, { logger: logs.logger });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });
  beforeEach(() => {
    t.app.log.level = 'info';
    logs.lines.length = 0;
  });

  it('writes nothing for ordinary reads at info, not even a 4xx', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/slider/public' });
    await t.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    await t.app.inject({ method: 'GET', url: '/api/admin/users' }); // 401
    expect(logs.lines).toEqual([]);
  });

  it('logs each change made in the console once, with who, what and how long, and never the body', async () => {
    const { user: admin, token } = await createUser(t, { role: 'admin' });
    logs.lines.length = 0;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users?note=x',
      headers: bearer(token),
      payload: { name: 'Logged Person', email: 'logged@example.com', password: 'secret-password-1' },
    });
    expect(created.statusCode).toBe(201);
    const lines = requestLines(logs.lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'Console change',
      method: 'POST',
      path: '/api/admin/users',
      status: 201,
      userId: admin._id,
    });
    expect(lines[0]!.reqId).toBeTruthy();
    expect(typeof lines[0]!.ms).toBe('number');
    const written = JSON.stringify(logs.lines);
    for (const secret of ['secret-password-1', 'logged@example.com', 'note=x', token]) {
      expect(written).not.toContain(secret);
    }
  });

  it('logs a refused change too (status says so), but not writes outside the console such as sign-in', async () => {
    await t.app.inject({ method: 'DELETE', url: '/api/playlists/abc' });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.c', password: 'x' },
    });
    const lines = requestLines(logs.lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'Console change', method: 'DELETE', status: 401 });
  });

  it('logs a 5xx answer at error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/login' });
    expect(response.statusCode).toBe(503);
    expect(requestLines(logs.lines)).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'Request failed',
        method: 'GET',
        path: '/login',
        status: 503,
      }),
    ]);
  });

  it('follows the level set while it runs: every request at debug, quiet again at info', async () => {
    t.app.log.level = 'debug';
    await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(requestLines(logs.lines)).toEqual([
      expect.objectContaining({ level: 20, msg: 'Request', method: 'GET', path: '/api/health', status: 200 }),
    ]);
    t.app.log.level = 'info';
    await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(requestLines(logs.lines)).toHaveLength(1);
  });

  it('never writes a reset token, at any level (16.13)', async () => {
    t.app.log.level = 'trace';
    const token = 'Zm9vYmFyLXNlY3JldC1yZXNldC10b2tlbi0xMjM0NTY3OA';
    await t.app.inject({
      method: 'PUT',
      url: `/api/auth/reset-password/${token}`,
      payload: { password: 'secret1' },
    });
    await t.app.inject({ method: 'GET', url: `/reset-password/${token}?x=1` });
    const written = JSON.stringify(logs.lines);
    expect(requestLines(logs.lines).map((line) => line.path)).toEqual([
      '/api/auth/reset-password/[token]',
      '/reset-password/[token]',
    ]);
    expect(written).not.toContain(token);
  });

  it('leaves console changes out at warn', async () => {
    t.app.log.level = 'warn';
    await t.app.inject({ method: 'DELETE', url: '/api/playlists/abc' });
    expect(logs.lines).toEqual([]);
  });
});

describe('request log rules for failures and slow requests', () => {
  const logs = captureLogs('info');
  const app = Fastify({ logger: logs.logger, logController: new RequestLogController(50) });
  beforeAll(async () => {
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw new Error('the disk is on fire');
    });
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    logs.lines.length = 0;
  });

  it('logs an unhandled error once, at error, with the error and its stack, while the client sees neither', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('fire');
    expect(logs.lines).toHaveLength(1);
    expect(logs.lines[0]).toMatchObject({ level: 50, msg: 'Request failed', path: '/boom', status: 500 });
    expect(logs.lines[0]!.err?.message).toBe('the disk is on fire');
    expect(logs.lines[0]!.err?.stack).toContain('request-log.test.ts');
  });

  it('logs a request slower than the threshold at warn', async () => {
    await app.inject({ method: 'GET', url: '/slow' });
    expect(logs.lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'Slow request', method: 'GET', path: '/slow', status: 200 }),
    ]);
    expect(logs.lines[0]!.ms).toBeGreaterThanOrEqual(50);
  });
});
