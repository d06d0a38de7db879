import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let member: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  member = (await createUser(t)).token;
});
afterAll(() => t.close());

const save = (
  headers: Record<string, string>,
  payload: object = { host: '127.0.0.1', port: 1, database: 'members' },
) => t.app.inject({ method: 'POST', url: '/api/admin/mongodb/config', headers, payload });

describe('POST /api/admin/mongodb/config: the shape of a refusal', () => {
  it('gives `error` beside the usual fields for what the save refuses, the missing password confirmation included', async () => {
    const unconfirmed = await save(bearer(admin));
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json()).toMatchObject({ success: false, code: 'REAUTH_REQUIRED' });
    expect(unconfirmed.json().error).toBe(unconfirmed.json().message);
    const invalid = await save(await confirmed(t, admin), { port: 'none' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe(invalid.json().message);
  });

  it('keeps the usual shape for those the administrators’ hook turns away', async () => {
    for (const [headers, status] of [
      [{}, 401],
      [bearer(member), 403],
    ] as const) {
      const refused = await save(headers);
      expect(refused.statusCode).toBe(status);
      expect(Object.keys(refused.json()).sort()).toEqual(['code', 'message', 'msg', 'success']);
    }
  });
});
