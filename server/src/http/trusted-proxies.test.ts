import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../settings/config';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * An app instance behind the nginx of another machine (docs/processes.md, "Several machines") must see each
 * visitor's own address, or every visitor would share the nginx machine's rate limits.
 */
const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

/** Three visitors register through nginx at 10.0.0.1, with a general limit of 2 per address. */
async function registrations(env: Record<string, string>): Promise<number[]> {
  const t = await createTestApp({ RATE_LIMIT_MAX: '2', ...env });
  opened.push(t);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      payload: { name: `Visitor ${i}`, email: `v${i}@example.com`, password: 'secret1' },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('TRUSTED_PROXIES', () => {
  it('lets the nginx machine named there tell each visitor’s address', async () => {
    expect(await registrations({ TRUSTED_PROXIES: '10.0.0.1' })).toEqual([201, 201, 201]);
    expect(await registrations({ TRUSTED_PROXIES: '10.0.0.0/24, fd00::/8' })).toEqual([201, 201, 201]);
  });

  it('trusts only this machine’s own nginx by default', async () => {
    expect(await registrations({})).toEqual([201, 201, 429]);
  });

  it('refuses what is not an address or a range', () => {
    for (const value of ['nginx.internal', '10.0.0.1/33', '10.0.0.1;', '*']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: value }), value).toThrow(/TRUSTED_PROXIES/);
    }
  });
});
