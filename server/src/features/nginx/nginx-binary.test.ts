import { afterEach, describe, expect, it } from 'vitest';
import { run } from './nginx-binary';

/** Finding 16.14: the programs the app runs (nginx, openssl, start and reload commands) see no secrets. */
const SECRETS = {
  ADMIN_PASSWORD: 'admin-password-from-env',
  JWT_SECRET: 'jwt-secret-from-env-0123456789abcdef',
  SMTP_URL: 'smtp://user:smtp-password@mail.example.com',
  MONGODB_URI: 'mongodb://user:mongo-password@db.example.com/members',
};

afterEach(() => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
});

describe('programs run by the app', () => {
  it('get PATH and a locale, never the app’s environment', async () => {
    Object.assign(process.env, SECRETS);
    const result = await run('/usr/bin/env', []);
    expect(result.ok).toBe(true);
    const names = result.output.split('\n').map((line) => line.split('=', 1)[0]);
    expect(names.sort()).toEqual(['LC_ALL', 'PATH']);
    for (const value of Object.values(SECRETS)) expect(result.output).not.toContain(value);
  });
});
