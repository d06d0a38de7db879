import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_SERVER_DEFAULTS } from '@common/schemas/app-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSavedSettings } from './app-server-file';
import { ConfigError, loadConfig } from './config';

/** How the config read at start layers the Node.js panel's settings: environment > saved > default. */
let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'app-server-config-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('application-server settings at start', () => {
  it('uses the defaults when nothing is saved or set', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.appServer).toEqual(APP_SERVER_DEFAULTS);
    expect(config).toMatchObject({ port: 5001, nodeEnv: 'production', logLevel: 'info', fixedByEnv: {} });
    expect(config.jwtSecret).toBeUndefined();
  });

  it('uses what the console saved, and the environment over that', async () => {
    await writeSavedSettings(dataDir, {
      port: 6001,
      nodeEnv: 'development',
      logLevel: 'verbose',
      sessionSecret: 's'.repeat(32),
      rateLimitMax: 7,
    });
    const saved = loadConfig({ DATA_DIR: dataDir });
    expect(saved).toMatchObject({
      port: 6001,
      publicUrl: 'http://127.0.0.1:6001',
      nodeEnv: 'development',
      logLevel: 'trace',
      jwtSecret: 's'.repeat(32),
    });
    expect(saved.appServer.rateLimitMax).toBe(7);

    const fixed = loadConfig({
      DATA_DIR: dataDir,
      PORT: '7001',
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      JWT_SECRET: 'e'.repeat(32),
      RATE_LIMIT_MAX: '9',
      RATE_LIMIT_WINDOW: '60000',
      CORS_ORIGIN: 'https://a.example',
      MAX_REQUEST_SIZE: '2mb',
    });
    expect(fixed).toMatchObject({
      port: 7001,
      nodeEnv: 'test',
      logLevel: 'error',
      jwtSecret: 'e'.repeat(32),
    });
    expect(fixed.appServer).toMatchObject({
      rateLimitMax: 9,
      rateLimitWindow: 60000,
      corsOrigin: 'https://a.example',
      maxRequestSize: '2mb',
    });
    expect(Object.keys(fixed.fixedByEnv).sort()).toEqual([
      'corsOrigin',
      'logLevel',
      'maxRequestSize',
      'nodeEnv',
      'port',
      'rateLimitMax',
      'rateLimitWindow',
      'sessionSecret',
    ]);
    // A blank variable counts as unset.
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '', LOG_LEVEL: ' ' })).toMatchObject({
      port: 6001,
      logLevel: 'trace',
    });
  });

  it('names every bad environment value', () => {
    let message = '';
    try {
      loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'staging', RATE_LIMIT_MAX: '0', CORS_ORIGIN: 'nowhere' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of ['NODE_ENV', 'RATE_LIMIT_MAX', 'CORS_ORIGIN']) expect(message).toContain(name);
  });

  it('refuses to start on a saved file someone broke by hand, naming the file and the field', async () => {
    await writeFile(path.join(dataDir, 'app-server.json'), JSON.stringify({ port: 80 }));
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/app-server\.json: port must be between 1000/);
    await writeFile(path.join(dataDir, 'app-server.json'), '{ not json');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/app-server\.json: not valid JSON/);
  });
});
