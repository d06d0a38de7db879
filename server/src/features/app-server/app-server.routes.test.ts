import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { APP_SERVER_DEFAULTS } from '@common/schemas/app-server';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../settings/config';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
afterEach(() => t?.close());

/** The app with no panel field fixed by the environment (createTestApp sets LOG_LEVEL otherwise). */
async function start(env: Record<string, string> = {}) {
  t = await createTestApp({ LOG_LEVEL: '', ...env });
  const admin = (await createUser(t, { role: 'admin' })).token;
  return { admin };
}

const getConfig = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/admin/nodejs/config', headers: bearer(token) });
const save = async (token: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/nodejs/config',
    headers: await confirmed(t, token),
    payload,
  });

describe('the Node.js panel API', () => {
  it('is for administrators only', async () => {
    const { admin } = await start();
    const member = (await createUser(t)).token;
    for (const [method, url] of [
      ['GET', '/api/admin/nodejs/config'],
      ['POST', '/api/admin/nodejs/config'],
      ['GET', '/api/admin/nodejs/status'],
      ['POST', '/api/admin/nodejs/restart'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
      expect((await t.app.inject({ method, url, headers: bearer(member) })).statusCode, url).toBe(403);
    }
    expect((await getConfig(admin)).statusCode).toBe(200);
  });

  it('answers the defaults when nothing is saved or set', async () => {
    const { admin } = await start();
    expect((await getConfig(admin)).json()).toEqual({
      success: true,
      config: {
        ...APP_SERVER_DEFAULTS,
        sessionSecret: '',
        sessionSecretSet: false,
        fixedByEnvironment: {},
        pendingRestart: [],
      },
    });
  });

  it('checks every field and names the bad one', async () => {
    const { admin } = await start();
    const bad: Array<[string, unknown]> = [
      ['port', 999],
      ['port', 65536],
      ['port', 5001.5],
      ['port', 'abc'],
      ['nodeEnv', 'staging'],
      ['corsOrigin', 'not an origin'],
      ['corsOrigin', 'https://example.com/some/path'],
      ['corsOrigin', 'ftp://example.com'],
      ['maxRequestSize', 'lots'],
      ['maxRequestSize', '512b'],
      ['maxRequestSize', '101mb'],
      ['rateLimitWindow', 999],
      ['rateLimitWindow', 86_400_001],
      ['rateLimitMax', 0],
      ['rateLimitMax', 1.5],
      ['sessionSecret', 'too short'],
      ['logLevel', 'loud'],
    ];
    for (const [field, value] of bad) {
      const response = await save(admin, { [field]: value });
      expect(response.statusCode, `${field}=${value}`).toBe(400);
      expect(response.json().message, `${field}=${value}`).toContain(field);
    }
    // Nothing was written by any of them.
    expect((await getConfig(admin)).json().config).toMatchObject({
      ...APP_SERVER_DEFAULTS,
      sessionSecret: '',
    });
  });

  it('accepts the edges of every range and saves the whole config, readable by the owner only', async () => {
    const { admin } = await start();
    for (const port of [1000, 65535, '5002']) expect((await save(admin, { port })).statusCode).toBe(200);
    for (const nodeEnv of ['development', 'test', 'production'])
      expect((await save(admin, { nodeEnv })).statusCode).toBe(200);
    for (const logLevel of ['error', 'warn', 'info', 'debug', 'verbose'])
      expect((await save(admin, { logLevel })).statusCode).toBe(200);
    for (const maxRequestSize of ['1kb', '100mb', '1048576'])
      expect((await save(admin, { maxRequestSize })).statusCode).toBe(200);

    const full = {
      port: 6123,
      nodeEnv: 'development',
      corsOrigin: 'https://members.example.com, http://localhost:3000/',
      maxRequestSize: '10MB',
      rateLimitWindow: 1000,
      rateLimitMax: 1,
      sessionSecret: '',
      logLevel: 'debug',
    };
    const response = await save(admin, full);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Node.js configuration saved! Restart the server for changes to take effect.',
      ignored: [],
    });
    const config = (await getConfig(admin)).json().config;
    expect(config).toMatchObject({
      ...full,
      corsOrigin: 'https://members.example.com, http://localhost:3000',
      maxRequestSize: '10mb',
      pendingRestart: ['port', 'nodeEnv'],
    });

    const file = path.join(t.dataDir, 'app-server.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The next start reads what was saved.
    expect(loadConfig({ DATA_DIR: t.dataDir }).appServer).toMatchObject({
      port: 6123,
      nodeEnv: 'development',
    });
  });

  it('never sends the session secret back; a blank one keeps it; a new one waits for the restart', async () => {
    const { admin } = await start();
    const secret = 'a-brand-new-secret-of-at-least-32-characters';
    expect((await save(admin, { sessionSecret: secret })).body).not.toContain(secret);
    const answer = await getConfig(admin);
    expect(answer.body).not.toContain(secret);
    expect(answer.json().config).toMatchObject({
      sessionSecret: '',
      sessionSecretSet: true,
      pendingRestart: ['sessionSecret'],
    });

    expect((await save(admin, { sessionSecret: '', rateLimitMax: 50 })).statusCode).toBe(200);
    const file = JSON.parse(await readFile(path.join(t.dataDir, 'app-server.json'), 'utf8'));
    expect(file).toMatchObject({ sessionSecret: secret, rateLimitMax: 50 });
    // It is the key that signs sign-in tokens from the next start on.
    expect(loadConfig({ DATA_DIR: t.dataDir }).jwtSecret).toBe(secret);
  });

  it('shows fields fixed by the environment and never pretends to change them', async () => {
    const secret = 'x'.repeat(40);
    const { admin } = await start({
      PORT: '6000',
      NODE_ENV: 'test',
      CORS_ORIGIN: 'https://fixed.example',
      LOG_LEVEL: 'warn',
      JWT_SECRET: secret,
    });
    const before = (await getConfig(admin)).json().config;
    expect(before).toMatchObject({
      port: 6000,
      nodeEnv: 'test',
      corsOrigin: 'https://fixed.example',
      logLevel: 'warn',
      sessionSecret: '',
      sessionSecretSet: true,
      fixedByEnvironment: {
        port: 'PORT',
        nodeEnv: 'NODE_ENV',
        corsOrigin: 'CORS_ORIGIN',
        logLevel: 'LOG_LEVEL',
        sessionSecret: 'JWT_SECRET',
      },
    });
    expect(before.fixedByEnvironment).not.toHaveProperty('rateLimitMax');

    const response = await save(admin, {
      ...before,
      port: 7000,
      corsOrigin: '*',
      logLevel: 'debug',
      sessionSecret: 'y'.repeat(40),
      rateLimitMax: 42,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().ignored.sort()).toEqual(['corsOrigin', 'logLevel', 'port', 'sessionSecret']);
    expect((await getConfig(admin)).json().config).toMatchObject({
      port: 6000,
      corsOrigin: 'https://fixed.example',
      logLevel: 'warn',
      rateLimitMax: 42,
      pendingRestart: [],
    });
    const file = JSON.parse(await readFile(path.join(t.dataDir, 'app-server.json'), 'utf8'));
    expect(file).toEqual({ maxRequestSize: '50mb', rateLimitWindow: 900000, rateLimitMax: 42, workers: 0 });
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reports the running process: uptime in ms, heap, CPU in µs, version', async () => {
    const { admin } = await start();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/nodejs/status',
      headers: bearer(admin),
    });
    const { success, status } = response.json();
    expect(success).toBe(true);
    expect(status.version).toBe(process.version);
    expect(Math.abs(status.uptime - process.uptime() * 1000)).toBeLessThan(5000);
    expect(status.memory.heapUsed).toBeGreaterThan(0);
    expect(status.memory.heapTotal).toBeGreaterThanOrEqual(status.memory.heapUsed);
    expect(status.memory.rss).toBeGreaterThan(0);
    expect(Number.isInteger(status.cpu.user) && status.cpu.user > 0).toBe(true);
    expect(Number.isInteger(status.cpu.system)).toBe(true);
  });

  it('says plainly when this server cannot restart itself', async () => {
    const { admin } = await start();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/nodejs/restart',
      headers: await confirmed(t, admin),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toMatch(/restart/);
  });
});
