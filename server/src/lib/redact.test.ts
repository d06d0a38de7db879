import { Binary, Decimal128, Long, ObjectId, Timestamp } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactDocument, redactUri } from './redact';

describe('redactDocument', () => {
  it('hides every secret the site keeps, and shows what is not secret', () => {
    const user = {
      _id: 'a1',
      email: 'a@example.com',
      password: '$argon2id$v=19$m=19456,t=2,p=1$salt$hash',
      resetTokenHash: 'f00d',
      resetTokenExpiresAt: new Date('2030-01-01T00:00:00Z'),
      tokenVersion: 3,
      role: 'admin',
    };
    expect(redactDocument(user)).toEqual({
      _id: 'a1',
      email: 'a@example.com',
      password: REDACTED,
      resetTokenHash: REDACTED,
      resetTokenExpiresAt: '2030-01-01T00:00:00.000Z',
      tokenVersion: 3,
      role: 'admin',
    });
  });

  it('hides secrets at any depth and under any name that says it is one', () => {
    const settings = {
      key: 'nodejs',
      value: { sessionSecret: 's3cret', smtp: { smtpPassword: 'x', user: 'me' }, list: [{ apiKey: 'k' }] },
      webhookSecretToken: 'w',
      passwordHistory: ['h1', 'h2'],
    };
    expect(redactDocument(settings)).toEqual({
      key: 'nodejs',
      value: {
        sessionSecret: REDACTED,
        smtp: { smtpPassword: REDACTED, user: 'me' },
        list: [{ apiKey: REDACTED }],
      },
      webhookSecretToken: REDACTED,
      passwordHistory: REDACTED,
    });
  });

  it("hides MongoDB's stored credentials", () => {
    const systemUser = {
      _id: 'admin.owner',
      user: 'owner',
      db: 'admin',
      credentials: { 'SCRAM-SHA-256': { iterationCount: 15000, salt: 's', storedKey: 'k', serverKey: 'k' } },
      roles: [{ role: 'root', db: 'admin' }],
    };
    expect(redactDocument(systemUser)).toMatchObject({ credentials: REDACTED, roles: [{ role: 'root' }] });
  });

  it("turns MongoDB's value types into plain JSON", () => {
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    const shown = redactDocument({
      _id: id,
      long: Long.fromNumber(42),
      huge: Long.fromString('9223372036854775807'),
      price: Decimal128.fromString('9.99'),
      blob: new Binary(Buffer.from('abcd')),
      ts: new Timestamp({ t: 1, i: 2 }),
      nested: { at: new Date(0) },
      missing: undefined,
    });
    expect(shown).toEqual({
      _id: '65a1b2c3d4e5f60718293a4b',
      long: 42,
      huge: '9223372036854775807',
      price: 'Decimal128(9.99)',
      blob: 'Binary(4 bytes)',
      ts: expect.stringMatching(/^Timestamp\(/),
      nested: { at: '1970-01-01T00:00:00.000Z' },
    });
    expect(JSON.parse(JSON.stringify(shown))).toEqual(shown);
  });

  it('cuts very long strings and lists', () => {
    const shown = redactDocument({
      text: 'x'.repeat(10_005),
      list: Array.from({ length: 1002 }, (_, i) => i),
    });
    expect(shown.text).toBe(`${'x'.repeat(10_000)}… (5 more characters)`);
    expect((shown.list as unknown[]).at(-1)).toBe('… 2 more items');
  });
});

describe('redactUri', () => {
  it('replaces the password of a MongoDB address, and leaves an address without one as it is', () => {
    expect(redactUri('mongodb://site:s3cr%40t@db.example:27017/members?authSource=admin')).toBe(
      'mongodb://site:***@db.example:27017/members?authSource=admin',
    );
    expect(redactUri('mongodb+srv://site:pw@cluster.example/members')).toBe(
      'mongodb+srv://site:***@cluster.example/members',
    );
    expect(redactUri('mongodb://db.example:27017/members')).toBe('mongodb://db.example:27017/members');
  });
});
