import path from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { hashedKeyPart } from '../../lib/rate-limiter';
import { COUNTERS_COLLECTION } from '../../store/mongo/counters';
import { openMongoStore } from '../../store/mongo/store';
import { COUNTERS_FILE } from '../../store/sqlite/counters';
import { openEmbeddedStore } from '../../store/sqlite/store';
import { ferretDbForFile } from '../../test/ferretdb';
import { createTestApp, createUser, type TestApp } from '../../test/test-app';

/**
 * Security review, issue 25 item 5: the rate counters' keys carry e-mails a client chooses, so
 * one client must not be able to add keys without bound, and the sweep that keeps the counters
 * under their ceiling must never lift a limit being enforced. On both stores' counters (MongoDB
 * on FerretDB).
 */
interface Site {
  t: TestApp;
  /** Every key in the store's counters. */
  keys(): Promise<string[]>;
}

const ferret = ferretDbForFile();

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function onSqlite(): Promise<Site> {
  const t = await createTestApp({}, { openStore: openEmbeddedStore });
  closing.push(() => t.close());
  const file = path.join(t.dataDir, 'db', COUNTERS_FILE);
  return {
    t,
    async keys() {
      const db = new Database(file, { readonly: true });
      try {
        return db
          .prepare<[], { key: string }>('SELECT key FROM counters')
          .all()
          .map((row) => row.key);
      } finally {
        db.close();
      }
    },
  };
}

async function onMongo(): Promise<Site> {
  const uri = ferret!.freshUri('site');
  const t = await createTestApp({}, { openStore: () => openMongoStore(uri) });
  closing.push(() => t.close());
  const client = new MongoClient(uri);
  closing.push(() => client.close());
  return {
    t,
    async keys() {
      const docs = await client
        .db()
        .collection(COUNTERS_COLLECTION)
        .find({}, { projection: { _id: 1 } })
        .toArray();
      return docs.map((doc) => String(doc._id));
    },
  };
}

const GUESSER = '203.0.113.50';

const login = (t: TestApp, address: string, email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    payload: { email, password },
  });

const forgot = (t: TestApp, address: string, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    remoteAddress: address,
    payload: { email },
  });

const SITES: Array<[string, () => Promise<Site>]> = [['the embedded store (SQLite)', onSqlite]];
if (ferret) SITES.push(['MongoDB (FerretDB)', onMongo]);

describe.each(SITES)('the rate counters on %s', (_label, open) => {
  it('a sweep down to the ceiling keeps a locked account locked, dropping windows below their limit', async () => {
    const { t } = await open();
    const { password } = await createUser(t, { email: 'owner@example.com' });
    for (let i = 0; i < 10; i++)
      expect((await login(t, GUESSER, 'owner@example.com', `guess-${i}`)).statusCode).toBe(400);
    expect((await login(t, GUESSER, 'owner@example.com', password)).statusCode).toBe(429);
    // Past the ceiling with windows of other clients, below their limit, all ending after the lock's.
    for (let i = 0; i < 60; i++) await t.store.counters.add(`other:${i}`, 1, 10, 3_600_000 + i * 1000);
    await t.store.counters.sweep(50);
    expect(await t.store.counters.get('other:0'), 'the sweep dropped windows').toBeNull();
    expect((await login(t, GUESSER, 'owner@example.com', password)).statusCode).toBe(429);
  });

  it('names e-mails in keys by a hash of fixed size, never as sent', async () => {
    const site = await open();
    const long = `${'x'.repeat(200)}@example.com`;
    for (const email of ['a@example.com', long]) {
      await login(site.t, GUESSER, email, 'guess');
      await forgot(site.t, GUESSER, email);
    }
    const keys = await site.keys();
    expect(keys.filter((key) => key.includes('@') || key.includes('example'))).toEqual([]);
    for (const email of ['a@example.com', long]) {
      const hashed = hashedKeyPart(email);
      expect(hashed).toHaveLength(22);
      // The account's tries, the account's from this address, the account's reset mails.
      expect(keys).toEqual(
        expect.arrayContaining([
          `sign-in:login:${hashed}`,
          `sign-in:login:${hashed}:${GUESSER}`,
          `sign-in:forgot:${hashed}`,
        ]),
      );
    }
  });
});

describe.each(SITES)('sign-in tries at once on %s', (_label, open) => {
  it('two first tries of one account from one address, at once, are both let in (12 times)', async () => {
    const { t } = await open();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const email = `tabs${i}@example.com`;
      await createUser(t, { email });
      const address = `198.51.100.${i + 1}`;
      const tries = await Promise.all([login(t, address, email, 'wrong'), login(t, address, email, 'wrong')]);
      statuses.push(...tries.map((response) => response.statusCode));
      // One e-mail brought in by that address, however many tries of it arrived together.
      expect((await t.store.counters.get(`sign-in:emails:${address}`))?.count).toBe(1);
    }
    expect(statuses).toEqual(Array(24).fill(400));
  });
});

describe('the e-mails one address brings into the counters', () => {
  it('are capped per window with a clear 429; known ones, other addresses and a right password go on', async () => {
    const { t } = await onSqlite();
    const { password } = await createUser(t, { email: 'member@example.com' });
    for (let i = 0; i < 19; i++)
      expect((await forgot(t, GUESSER, `made-up-${i}@example.com`)).statusCode).toBe(200);
    // The 20th: a wrong password for a real account, then its owner's right one gives its place back.
    expect((await login(t, GUESSER, 'member@example.com', 'wrong')).statusCode).toBe(400);
    expect((await login(t, GUESSER, 'member@example.com', password)).statusCode).toBe(200);
    expect((await forgot(t, GUESSER, 'made-up-19@example.com')).statusCode).toBe(200);
    const refused = await forgot(t, GUESSER, 'made-up-20@example.com');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many different e-mail addresses from your address\. /);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await login(t, GUESSER, 'someone-new@example.com', 'guess')).statusCode).toBe(429);
    // An e-mail already in the counters adds no key; another address has its own count.
    expect((await forgot(t, GUESSER, 'made-up-3@example.com')).statusCode).toBe(200);
    expect((await forgot(t, '198.51.100.7', 'made-up-20@example.com')).statusCode).toBe(200);
  });
});
