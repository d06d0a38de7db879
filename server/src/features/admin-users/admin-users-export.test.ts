import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = await createTestApp();
  token = (await createUser(t, { name: 'Owner', email: 'owner@example.com', role: 'admin' })).token;
});
afterEach(() => t.close());

const exportCsv = (query = '') =>
  t.app.inject({ url: `/api/admin/users/export.csv${query}`, headers: bearer(token) });
const rows = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

describe('GET /api/admin/users/export.csv', () => {
  it('downloads every matching user as CSV, searched and sorted like the list, past one page', async () => {
    await t.store.collection('users').insertMany(
      Array.from({ length: 25 }, (_, i) => ({
        name: `Member ${String(i).padStart(2, '0')}`,
        email: `m${i}@example.com`,
        password: 'x',
        role: 'user',
        membershipTier: i % 2 ? 'paid' : 'free',
        status: 'active',
        tokenVersion: 0,
      })),
    );
    const response = await exportCsv('?search=member&sortBy=name&sortOrder=desc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = rows(response.body);
    expect(lines[0]).toBe(
      '"Name","Email","Role","Tier","Status","Created","Tier source","Subscription status","Period end","Stripe customer","Courses bought"',
    );
    expect(lines).toHaveLength(26);
    expect(lines[1]).toMatch(/^"Member 24","m24@example.com","user","free","active","\d{4}-/);
    expect(lines[25]).toMatch(/^"Member 00",/);
    expect(response.body).not.toContain('Owner');
    expect(response.body).not.toContain('argon2');
  });

  it('quotes commas and quotes, and defuses cells a spreadsheet would run as formulas', async () => {
    await t.store.collection('users').insertOne({
      name: '=HYPERLINK("http://evil","click"), Bob',
      email: 'bob@example.com',
      password: 'x',
      role: 'user',
      membershipTier: 'free',
      status: 'active',
      tokenVersion: 0,
    });
    const lines = rows((await exportCsv('?sortBy=email&sortOrder=asc')).body);
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil"",""click""\), Bob","bob@example.com",/);
  });

  it('gives each member’s billing: why they are paid, Stripe’s status, the period end and the customer', async () => {
    await t.store.collection<UserDoc>('users').insertMany([
      {
        name: 'Payer',
        email: 'payer@example.com',
        password: 'x',
        role: 'user',
        membershipTier: 'paid',
        status: 'active',
        tierSource: 'stripe',
        billing: {
          customerId: 'cus_123',
          subscriptionId: 'sub_123',
          status: 'past_due',
          currentPeriodEnd: new Date('2030-05-01T00:00:00Z'),
        },
        purchases: ['Drawing rooms', 'Old course'].map((courseTitle, index) => ({
          courseId: `course${index}`,
          courseTitle,
          priceId: 'price_once',
          checkoutSessionId: `cs_${index}`,
          paymentId: `pi_${index}`,
          amount: 4900,
          currency: 'gbp',
          boughtAt: new Date('2030-01-01T00:00:00Z'),
          refundedAt: index === 1 ? new Date('2030-01-02T00:00:00Z') : null,
        })),
      },
      // Whatever a billing cell holds goes through the same quoting and defusing as a name.
      {
        name: 'Odd',
        email: 'odd@example.com',
        password: 'x',
        role: 'user',
        membershipTier: 'free',
        status: 'active',
        billing: { customerId: '=cmd|"/c calc"' },
      },
    ]);
    const lines = rows((await exportCsv('?sortBy=email&sortOrder=asc')).body);
    expect(lines[1]).toMatch(/^"Odd",.*,"","","","'=cmd\|""\/c calc""",""$/);
    // Never billed: empty billing cells.
    expect(lines[2]).toMatch(/^"Owner","owner@example.com","admin","free","active","[^"]+","","","","",""$/);
    expect(lines[3]).toMatch(
      /^"Payer",.*,"stripe","past_due","2030-05-01T00:00:00.000Z","cus_123","Drawing rooms; Old course \(refunded\)"$/,
    );
  });

  it('refuses an unknown sort field like the list does', async () => {
    expect((await exportCsv('?sortBy=password')).statusCode).toBe(400);
  });
});
