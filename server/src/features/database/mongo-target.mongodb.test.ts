import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

/** Test Connection through the API and the real driver, against a MongoDB stand-in on the wire. */
let t: TestApp;
let token: string;
let proof: Record<string, string>;
const standIns: MongoStandIn[] = [];

beforeAll(async () => {
  t = await createTestApp();
  token = (await createUser(t, { role: 'admin' })).token;
  proof = await confirmed(t, token);
});
afterAll(async () => {
  await t.close();
  for (const standIn of standIns) await standIn.close();
});

async function standIn(options: Parameters<typeof startMongoStandIn>[0]) {
  const started = await startMongoStandIn(options);
  standIns.push(started);
  return started;
}

const test = (port: number, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/mongodb/test',
    headers: proof,
    payload: { host: '127.0.0.1', port, database: 'members', ...body },
  });

describe('Test Connection against MongoDB', () => {
  it('answers with the chosen database’s collection and document counts, and the server’s databases', async () => {
    const server = await standIn({
      data: {
        members: {
          users: { docs: [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }] },
          settings: { docs: [{ _id: 's' }, { _id: 't' }] },
        },
        archive: { old: { docs: [{ _id: 'x' }] } },
      },
    });
    const answer = await test(server.port, { poolSize: 7 });
    expect(answer.json()).toEqual({
      success: true,
      connected: true,
      message: 'Connection successful! Found 2 collections and 5 documents.',
      stats: { collections: 2, documents: 5 },
      databases: ['archive', 'members'],
    });
    expect(new Set(server.sent().map((c) => c.name))).toEqual(new Set(['listDatabases', 'dbStats']));
    // Nothing was saved.
    const config = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mongodb/config',
      headers: bearer(token),
    });
    expect(config.json().config.poolSize).toBe(10);
  });

  it('finds 0 and 0 in a database that does not exist yet (MongoDB makes it on first write)', async () => {
    const server = await standIn({ data: { other: { c: { docs: [{ _id: 1 }] } } } });
    expect((await test(server.port)).json().message).toBe(
      'Connection successful! Found 0 collections and 0 documents.',
    );
  });

  it('says plainly that a server did not answer within the time limit, the driver’s text one click away', async () => {
    const server = await standIn({ hang: ['listDatabases'] });
    const started = Date.now();
    const answer = await test(server.port);
    expect(answer.json()).toEqual({
      success: false,
      connected: false,
      message: 'Connection test failed: The server did not answer within 5 seconds',
      detail: expect.stringMatching(/timed out/),
    });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('reports a refused login with the server’s reason', async () => {
    const server = await standIn({ unauthorized: ['listDatabases', 'dbStats'] });
    const answer = (await test(server.port)).json();
    expect(answer.success).toBe(false);
    expect(answer.message).toMatch(/^Connection test failed: not authorized on members to execute dbStats/);
    expect(answer.detail).toMatch(/not authorized/);
  });
});
