import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp | undefined;
afterEach(() => t?.close());

const login = (app: TestApp, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('create that administrator at start when no user has the e-mail', async () => {
    t = await createTestApp({ ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'owner-password' });
    const response = await login(t, 'owner@example.com', 'owner-password');
    expect(response.statusCode).toBe(200);
    const payload = JSON.parse(Buffer.from(response.json().token.split('.')[1], 'base64url').toString());
    expect(payload.user.role).toBe('admin');
  });

  it('never create an administrator otherwise', async () => {
    t = await createTestApp();
    expect(await t.store.collection('users').count()).toBe(0);
  });

  it('leave an existing account with that e-mail untouched', async () => {
    t = await createTestApp();
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Early Bird', email: 'owner@example.com', password: 'member-password' },
    });
    const { ensureAdmin } = await import('./ensure-admin');
    const { UsersRepository } = await import('./users.repository');
    await ensureAdmin(
      new UsersRepository(t.store),
      { email: 'owner@example.com', password: 'other-password' },
      t.app.log,
    );
    expect((await login(t, 'owner@example.com', 'member-password')).statusCode).toBe(200);
    expect(await t.store.collection('users').findOne({ email: 'owner@example.com' })).toMatchObject({
      role: 'user',
    });
  });
});

describe('the bootstrap administrator (16.9)', () => {
  it('is not created again after being deleted, and the log says why', async () => {
    const env = { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'owner-password' };
    t = await createTestApp(env);
    const users = t.store.collection('users');
    const owner = await users.findOne({ email: 'owner@example.com' });
    // Someone else is made an administrator, then the bootstrap one is deleted.
    await users.insertOne({ name: 'New owner', email: 'new@example.com', role: 'admin', status: 'active' });
    await users.deleteById(owner!._id);

    // A restart with the same environment: the same store, a new app.
    const { buildApp } = await import('../../app');
    const { loadConfig } = await import('../../settings/config');
    const lines: string[] = [];
    const restarted = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, ...env }),
      store: t.store,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    await restarted.close();
    expect(await users.findOne({ email: 'owner@example.com' })).toBeNull();
    expect(lines.join('')).toMatch(/ADMIN_EMAIL ignored: the store already has an administrator/);
  });
});
