import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../settings/config';
import { apiBaseOf } from '../../settings/payments-env';
import { checkoutCompleted, signed, TEST_WEBHOOK_SECRET } from '../../test/stripe-events';
import { type StripeStandIn, startStripeStandIn, stripePrice } from '../../test/stripe-stand-in';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

let stripe: StripeStandIn;
let t: TestApp | undefined;
const lines: string[] = [];
const logger = { level: 'trace', stream: { write: (line: string) => lines.push(line) } };

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_monthly', stripePrice('price_monthly', { amount: 1500 }));
  stripe.prices.set('price_once', stripePrice('price_once', { interval: null }));
  stripe.prices.set('price_archived', stripePrice('price_archived', { active: false }));
});
afterAll(() => stripe.close());
afterEach(async () => {
  await t?.close();
  t = undefined;
  lines.length = 0;
});

const KEY = () => stripe.apiKey;
const SIGNING = TEST_WEBHOOK_SECRET;

async function site(env: Record<string, string> = {}) {
  t = await createTestApp({ STRIPE_API_BASE: stripe.url, ...env }, { logger });
  const admin = await createUser(t, { role: 'admin' });
  return { t, admin };
}
const settingsCall = (
  app: TestApp,
  headers: Record<string, string>,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => app.app.inject({ method, url: `/api/admin/payments${url}`, headers, payload });

describe('The console’s Payments settings', () => {
  it('saves the key, signing secret and prices only with the password confirmed, and never sends a secret back', async () => {
    const { t, admin } = await site();
    const body = { secretKey: KEY(), webhookSecret: SIGNING, priceIds: ['price_monthly'] };
    const refused = await settingsCall(t, bearer(admin.token), 'POST', '/settings', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('REAUTH_REQUIRED');

    const saved = await settingsCall(t, await confirmed(t, admin.token), 'POST', '/settings', body);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({
      secretKey: { set: true, last4: KEY().slice(-4) },
      webhookSecret: { set: true, last4: SIGNING.slice(-4) },
      priceIds: ['price_monthly'],
      mode: 'test',
      ready: true,
      webhookUrl: expect.stringMatching(/\/api\/payments\/webhook$/),
    });
    const view = await settingsCall(t, bearer(admin.token), 'GET', '/settings');
    for (const answer of [saved, view]) {
      expect(answer.body).not.toContain(KEY());
      expect(answer.body).not.toContain(SIGNING);
    }

    const file = path.join(t.dataDir, 'payments.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(body);

    // The Activity log says what changed, never a character of a secret.
    const activity = await t.app.inject({
      method: 'GET',
      url: '/api/admin/activity?kind=payments.saved',
      headers: bearer(admin.token),
    });
    expect(activity.json().data[0].summary).toBe(
      'Saved the payment settings: secret key, webhook signing secret, prices',
    );
    expect(activity.body).not.toContain(KEY().slice(-4));

    // Members can upgrade now, and Stripe's events are accepted.
    const plans = await t.app.inject({ method: 'GET', url: '/api/payments/plans' });
    expect(plans.json().available).toBe(true);
    const { payload, header } = signed(
      checkoutCompleted({ userId: 'nobody', customer: 'cus_0', subscription: 'sub_0' }),
    );
    const event = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(event.statusCode).toBe(200);
  });

  it('keeps a secret when its field is left blank, forgets it when asked', async () => {
    const { t, admin } = await site();
    const headers = await confirmed(t, admin.token);
    await settingsCall(t, headers, 'POST', '/settings', {
      secretKey: KEY(),
      webhookSecret: SIGNING,
      priceIds: ['price_monthly'],
    });
    const kept = await settingsCall(t, headers, 'POST', '/settings', {
      secretKey: '',
      webhookSecret: '',
      priceIds: ['price_monthly'],
    });
    expect(kept.json().data).toMatchObject({ secretKey: { set: true }, webhookSecret: { set: true } });
    const forgotten = await settingsCall(t, headers, 'POST', '/settings', {
      remove: ['secretKey', 'webhookSecret'],
      priceIds: [],
    });
    expect(forgotten.json().data).toMatchObject({
      secretKey: { set: false, last4: null },
      webhookSecret: { set: false },
      priceIds: [],
      ready: false,
    });
  });

  it('refuses a publishable key and badly formed values, in plain words', async () => {
    const { t, admin } = await site();
    const headers = await confirmed(t, admin.token);
    const publishable = await settingsCall(t, headers, 'POST', '/settings', {
      secretKey: 'pk_test_abcdefghijklmnop',
    });
    expect(publishable.statusCode).toBe(400);
    expect(publishable.json().message).toMatch(/publishable key/);
    const signing = await settingsCall(t, headers, 'POST', '/settings', { webhookSecret: 'not-a-secret' });
    expect(signing.json().message).toMatch(/starts with whsec_/);
  });

  it('leaves fields set by the environment alone and says which variable sets them', async () => {
    const { t, admin } = await site({ STRIPE_SECRET_KEY: KEY(), STRIPE_PRICE_IDS: 'price_monthly' });
    const headers = await confirmed(t, admin.token);
    const saved = await settingsCall(t, headers, 'POST', '/settings', {
      secretKey: 'sk_test_console_typed_000000000',
      webhookSecret: SIGNING,
      priceIds: ['price_other'],
    });
    expect(saved.json().data).toMatchObject({
      secretKey: { set: true, last4: KEY().slice(-4) },
      priceIds: ['price_monthly'],
      webhookSecret: { set: true },
      fixedByEnvironment: { secretKey: 'STRIPE_SECRET_KEY', priceIds: 'STRIPE_PRICE_IDS' },
      apiBase: stripe.url,
    });
    expect(await readFile(path.join(t.dataDir, 'payments.json'), 'utf8')).not.toContain('console_typed');
  });

  it('Test says whether Stripe accepted the key and whether each price exists and recurs', async () => {
    const { t, admin } = await site();
    const test = async (payload: object) =>
      (await settingsCall(t, bearer(admin.token), 'POST', '/test', payload)).json().data;

    const good = await test({ secretKey: KEY(), priceIds: ['price_monthly'] });
    expect(good.checks).toEqual([
      { label: 'Secret key', outcome: 'ok', detail: 'Stripe accepted the key (test mode).' },
      expect.objectContaining({ label: 'Permissions', outcome: 'ok' }),
      { label: 'Price price_monthly', outcome: 'ok', detail: '£15.00 a month, recurring.' },
      expect.objectContaining({ label: 'Webhook signing secret', outcome: 'failed' }),
      expect.objectContaining({ label: 'Stripe address', outcome: 'warning' }),
    ]);
    expect(good.ok).toBe(false);

    const wrongKey = await test({ secretKey: 'sk_test_wrong_key_000000000000', priceIds: ['price_monthly'] });
    expect(wrongKey.checks[0]).toEqual({
      label: 'Secret key',
      outcome: 'failed',
      detail: 'Stripe refused the key: it is not a valid key, or it was deleted or rolled.',
    });

    const prices = await test({
      secretKey: KEY(),
      priceIds: ['price_once', 'price_archived', 'price_missing'],
    });
    expect(prices.checks.slice(2, 5)).toEqual([
      {
        label: 'Price price_once',
        outcome: 'failed',
        detail: expect.stringMatching(/paid once.*recurring price/),
      },
      { label: 'Price price_archived', outcome: 'failed', detail: expect.stringMatching(/archived/) },
      {
        label: 'Price price_missing',
        outcome: 'failed',
        detail: expect.stringMatching(/no such price in test mode/),
      },
    ]);
  });

  it('Test says in plain words which permission a restricted key lacks, and refuses a metered price', async () => {
    const { t, admin } = await site();
    const test = async (payload: object) =>
      (await settingsCall(t, bearer(admin.token), 'POST', '/test', payload)).json().data;
    const wanted = {
      customers: 'Customers',
      subscriptions: 'Subscriptions',
      checkout_sessions: 'Checkout Sessions',
      billing_portal: 'Customer portal',
      payment_intents: 'PaymentIntents',
      charges: 'Charges',
    };
    for (const [resource, label] of Object.entries(wanted)) {
      stripe.forbidden.add(resource);
      try {
        const result = await test({ secretKey: KEY(), priceIds: ['price_monthly'] });
        expect(result.ok, resource).toBe(false);
        expect(result.checks, resource).toContainEqual({
          label: `Permission: ${label}`,
          outcome: 'failed',
          detail: expect.stringContaining(
            `“${label}: ${['PaymentIntents', 'Charges'].includes(label) ? 'Read' : 'Write'}”`,
          ),
        });
        // The others are not blamed.
        expect(
          result.checks.filter((check: { label: string }) => check.label.startsWith('Permission')),
        ).toHaveLength(1);
      } finally {
        stripe.forbidden.delete(resource);
      }
    }
    stripe.prices.set('price_metered', stripePrice('price_metered', { usageType: 'metered' }));
    const metered = await test({ secretKey: KEY(), priceIds: ['price_metered'] });
    expect(metered.checks).toContainEqual({
      label: 'Price price_metered',
      outcome: 'failed',
      detail: expect.stringMatching(/metered.*Checkout refuses a quantity/),
    });
  });

  it('Test counts the signing secret typed in the form, before it is saved', async () => {
    const { t, admin } = await site();
    const typed = await settingsCall(t, bearer(admin.token), 'POST', '/test', {
      secretKey: KEY(),
      webhookSecret: SIGNING,
      priceIds: ['price_monthly'],
    });
    expect(typed.statusCode).toBe(200);
    expect(typed.json().data.checks).toContainEqual(
      expect.objectContaining({ label: 'Webhook signing secret', outcome: 'ok' }),
    );
    // Nothing was saved by the Test.
    const view = await settingsCall(t, bearer(admin.token), 'GET', '/settings');
    expect(view.json().data.webhookSecret.set).toBe(false);
  });

  it('never writes a key or a signing secret to the log, whatever happens', async () => {
    const { t, admin } = await site();
    const headers = await confirmed(t, admin.token);
    await settingsCall(t, headers, 'POST', '/settings', {
      secretKey: KEY(),
      webhookSecret: SIGNING,
      priceIds: ['price_monthly'],
    });
    await settingsCall(t, headers, 'POST', '/test', { secretKey: 'sk_test_wrong_key_000000000000' });
    const member = await createUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers: bearer(member.token),
      payload: {},
    });
    const { payload } = signed(checkoutCompleted({ userId: 'x', customer: 'c', subscription: 's' }), {
      secret: 'whsec_wrong_000000000',
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload,
    });
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    for (const secret of [KEY(), SIGNING, 'sk_test_wrong_key_000000000000', KEY().slice(-8)])
      expect(log).not.toContain(secret);
  });
});

describe('STRIPE_* settings', () => {
  it('reads STRIPE_API_BASE as the stripe package’s host, port and protocol', () => {
    expect(apiBaseOf('http://127.0.0.1:12111')).toMatchObject({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(apiBaseOf('https://stripe.internal')).toMatchObject({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
  });

  it('refuses bad values without repeating them', () => {
    const secret = 'pk_live_this_should_never_be_printed';
    let message = '';
    try {
      loadConfig({
        DATA_DIR: '/tmp/x',
        STRIPE_SECRET_KEY: secret,
        STRIPE_WEBHOOK_SECRET: 'nope',
        STRIPE_API_BASE: 'ftp://x',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/STRIPE_SECRET_KEY/);
    expect(message).toMatch(/STRIPE_WEBHOOK_SECRET/);
    expect(message).toMatch(/STRIPE_API_BASE/);
    expect(message).not.toContain(secret);
    const config = loadConfig({ DATA_DIR: '/tmp/x', STRIPE_PRICE_IDS: 'price_a, price_b price_a' });
    expect(config.payments).toMatchObject({
      priceIds: ['price_a', 'price_b'],
      fixedByEnv: { priceIds: 'STRIPE_PRICE_IDS' },
    });
  });
});
