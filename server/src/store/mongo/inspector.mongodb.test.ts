import { afterEach, describe, expect, it } from 'vitest';
import { type MongoStandIn, type StandInOptions, startMongoStandIn } from '../../test/mongo-stand-in';
import { type MongoInspector, mongoInspector } from './inspector';

/**
 * The MongoDB side of the database panel, over the official driver and the real wire protocol,
 * against a stand-in server that answers as MongoDB documents. Each test checks the command
 * document MongoDB receives (name, database, arguments, time limit) and that its reply is read right.
 */
const DATA: StandInOptions['data'] = {
  members: {
    users: {
      docs: [
        { _id: 'u1', email: 'a@example.com', password: 'hash' },
        { _id: 'u2', email: 'b@example.com', password: 'hash' },
        { _id: 'u3', email: 'c@example.com', password: 'hash' },
      ],
      indexes: [
        { name: 'email_1', key: { email: 1 }, unique: true },
        { name: 'resetTokenHash_1', key: { resetTokenHash: 1 }, sparse: true },
      ],
    },
    settings: { docs: [{ _id: 's1', key: 'slider' }] },
  },
  reports: { monthly: { docs: [{ _id: 'r1' }] } },
};

let standIn: MongoStandIn;
let inspector: MongoInspector;
const open = async (options: StandInOptions = {}, timeLimitMs?: number) => {
  standIn = await startMongoStandIn({ data: DATA, ...options });
  inspector = mongoInspector(standIn.uri('members'), timeLimitMs);
};
afterEach(async () => {
  await inspector?.close();
  await standIn?.close();
});

const sent = (name: string) => standIn.sent().filter((c) => c.name === name);

describe('mongoInspector over the wire', () => {
  it('reads the version from buildInfo and the uptime from serverStatus, on admin, with maxTimeMS', async () => {
    await open({ version: '7.0.12', uptimeSeconds: 7265.4 });
    expect(await inspector.server()).toEqual({
      kind: 'mongodb',
      version: '7.0.12',
      uptimeSeconds: 7265,
      host: '127.0.0.1',
      port: standIn.port,
      database: 'members',
      location: `127.0.0.1:${standIn.port}/members`,
    });
    expect(sent('buildInfo')[0]).toMatchObject({ db: 'admin', document: { buildInfo: 1, maxTimeMS: 5000 } });
    expect(sent('serverStatus')[0]).toMatchObject({
      db: 'admin',
      document: { serverStatus: 1, maxTimeMS: 5000 },
    });
  });

  it('leaves the uptime out for a user who may not run serverStatus', async () => {
    await open({ unauthorized: ['serverStatus'] });
    expect((await inspector.server()).uptimeSeconds).toBeNull();
  });

  it('lists databases with listDatabases (names only, the ones the user may see)', async () => {
    await open();
    expect(await inspector.databaseNames()).toEqual(['members', 'reports']);
    expect(sent('listDatabases')[0]).toMatchObject({
      db: 'admin',
      document: { listDatabases: 1, nameOnly: true, authorizedDatabases: true, maxTimeMS: 5000 },
    });
  });

  it('falls back to the database of the URI when listDatabases is not allowed', async () => {
    await open({ unauthorized: ['listDatabases'] });
    expect(await inspector.databaseNames()).toEqual(['members']);
  });

  it("reads dbStats for a database's counts and sizes", async () => {
    await open();
    const stats = await inspector.databaseStats('members');
    expect(sent('dbStats')[0]).toMatchObject({
      db: 'members',
      document: { dbStats: 1, scale: 1, maxTimeMS: 5000 },
    });
    expect(stats).toMatchObject({ database: 'members', collections: 2, objects: 4, indexes: 4 });
    expect(stats!.dataSize).toBeGreaterThan(0);
    expect(stats!.storageSize).toBe(stats!.dataSize * 2);
    expect(stats!.avgObjSize).toBe(Math.round(stats!.dataSize / 4));
    expect(await inspector.databaseStats('nope')).toBeNull();
    expect(sent('dbStats')).toHaveLength(1);
  });

  it('describes each collection with $collStats and listIndexes', async () => {
    await open();
    const collections = await inspector.collections('members');
    expect(sent('listCollections')[0]).toMatchObject({
      db: 'members',
      document: { listCollections: 1, filter: { type: 'collection' }, nameOnly: true, maxTimeMS: 5000 },
    });
    expect(sent('aggregate').map((c) => c.document)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          aggregate: 'users',
          pipeline: [{ $collStats: { storageStats: {} } }],
          cursor: {},
          maxTimeMS: 5000,
          $db: 'members',
        }),
      ]),
    );
    expect(sent('listIndexes').map((c) => c.document)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ listIndexes: 'users', cursor: {}, maxTimeMS: 5000 }),
      ]),
    );
    const users = collections!.find((c) => c.name === 'users')!;
    expect(users).toMatchObject({ count: 3 });
    expect(users.size).toBeGreaterThan(0);
    expect(users.storageSize).toBe(users.size * 2);
    expect(users.indexes).toEqual([
      { name: '_id_', keys: { _id: 1 }, unique: false, sparse: false },
      { name: 'email_1', keys: { email: 1 }, unique: true, sparse: false },
      { name: 'resetTokenHash_1', keys: { resetTokenHash: 1 }, unique: false, sparse: true },
    ]);
    expect(collections!.map((c) => c.name)).toEqual(['settings', 'users']);
    expect(await inspector.collections('nope')).toBeNull();
  });

  it('reads documents with find (limit and maxTimeMS) and the total with count', async () => {
    await open();
    const page = await inspector.documents('members', 'users', 2);
    expect(page).toEqual({
      total: 3,
      documents: [
        { _id: 'u1', email: 'a@example.com', password: 'hash' },
        { _id: 'u2', email: 'b@example.com', password: 'hash' },
      ],
    });
    expect(sent('find')[0]).toMatchObject({
      db: 'members',
      document: { find: 'users', filter: {}, limit: 2, maxTimeMS: 5000 },
    });
    expect(sent('count')[0]).toMatchObject({ db: 'members', document: { count: 'users', maxTimeMS: 5000 } });
    expect(await inspector.documents('members', 'nope', 2)).toBeNull();
    expect(await inspector.documents('nope', 'users', 2)).toBeNull();
    // Nothing that writes was ever sent.
    const writes = ['insert', 'update', 'delete', 'findAndModify', 'create', 'drop', 'createIndexes'];
    expect(standIn.sent().filter((c) => writes.includes(c.name))).toEqual([]);
  });

  it('gives up on a server that stops answering, within the time limit', async () => {
    await open({ hang: ['dbStats'] }, 500);
    const started = Date.now();
    await expect(inspector.databaseStats('members')).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(sent('dbStats')[0]?.document.maxTimeMS).toBe(500);
  });

  it('gives up on a server that accepts connections but never completes the handshake', async () => {
    await open({ hang: ['ismaster', 'hello'] }, 500);
    const started = Date.now();
    await expect(inspector.databaseNames()).rejects.toThrow(/timed out|Server selection/i);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
