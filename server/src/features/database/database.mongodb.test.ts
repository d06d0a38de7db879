import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../lib/redact';
import { openMongoStore } from '../../store/mongo/store';
import { ferretDbForFile } from '../../test/ferretdb';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

/**
 * The database panel's smoke test on a real server: FerretDB (test/ferretdb.ts) in every run, and
 * MongoDB itself wherever MONGODB_URI is set, in a fresh database on that server:
 * MONGODB_URI=mongodb://127.0.0.1:27017/anything npm run test:mongodb
 */
const ferret = ferretDbForFile();
if (ferret) describePanel('FerretDB', () => ferret.server().uri('anything'));

const uri = process.env.MONGODB_URI;
if (uri) describePanel('MongoDB (MONGODB_URI)', () => uri);
else {
  describe('database panel on MongoDB itself', () => {
    it.skip('runs only when MONGODB_URI is set', () => {});
  });
}

function describePanel(label: string, serverUri: () => string) {
  describe(`database panel on a real server: ${label}`, () => {
    const database = `panel_smoke_${Date.now()}`;
    let url: URL;
    let t: TestApp;
    let token: string;

    beforeAll(async () => {
      url = new URL(serverUri());
      url.pathname = `/${database}`;
      t = await createTestApp({}, { openStore: () => openMongoStore(url.toString()) });
      token = (await createUser(t, { role: 'admin' })).token;
      await createUser(t);
    });
    afterAll(() => t?.close());

    const get = async (route: string) => {
      const answer = await t.app.inject({ method: 'GET', url: route, headers: bearer(token) });
      expect(answer.statusCode, `${route}: ${answer.body}`).toBe(200);
      return answer.json();
    };

    it('describes the live MongoDB: status, databases, stats, details and redacted documents', async () => {
      const status = await get('/api/admin/mongodb/status');
      expect(status).toMatchObject({ connected: true, stats: { store: 'mongodb', database } });
      expect(status.stats.version).toMatch(/^\d+\.\d+/);

      const names = (await get('/api/admin/mongodb/databases')).databases.map(
        (d: { name: string }) => d.name,
      );
      expect(names).toContain(database);
      expect(
        (await get(`/api/admin/mongodb/database/${database}/stats`)).stats.objects,
      ).toBeGreaterThanOrEqual(2);

      const details = (await get(`/api/admin/mongodb/database/${database}/details`)).database;
      const users = details.collections.find((c: { name: string }) => c.name === 'users');
      expect(users.count).toBe(2);
      expect(users.indexes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'email_1', keys: { email: 1 }, unique: true }),
        ]),
      );

      const page = (await get(`/api/admin/mongodb/database/${database}/collection/users?limit=20`))
        .collection;
      expect(page.pagination).toMatchObject({ total: 2, shown: 2 });
      for (const doc of page.documents) expect(doc.password).toBe(REDACTED);
    });

    it('tests a connection to the same server', async () => {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/admin/mongodb/test',
        // Test Connection asks for the administrator's password again (see docs/database.md).
        headers: await confirmed(t, token),
        payload: {
          host: url.hostname,
          port: Number(url.port || 27017),
          database,
          authEnabled: Boolean(url.username),
          username: decodeURIComponent(url.username),
          password: decodeURIComponent(url.password),
        },
      });
      expect(answer.json(), answer.body).toMatchObject({
        success: true,
        connected: true,
        stats: { collections: expect.any(Number) },
      });
    });
  });
}
