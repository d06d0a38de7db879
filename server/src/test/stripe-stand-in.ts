import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  checkoutRefusal,
  oneOffPayment,
  priceModeRefusal,
  type StandInPromotion,
  trialAndDiscount,
  withDiscountsAsAsked,
} from './stripe-stand-in-checkout';

/**
 * A stand-in for the part of Stripe's HTTP API the site calls, for tests: no test reaches Stripe.
 * The official `stripe` package is pointed at it through STRIPE_API_BASE, so its real request code
 * runs. It answers in Stripe's documented shapes (customers, checkout sessions, billing portal
 * sessions, prices, subscriptions, Stripe's error body), records every call, and plays the two
 * pages the member visits: its checkout page "pays" (makes an active subscription) and sends the
 * browser back to the success address; its portal page sends them back to the return address.
 * Tests (and browser tests, over HTTP under /_stand-in/) set prices and subscriptions.
 */
export interface StandInCall {
  method: string;
  path: string;
  /** The form body Stripe's client sends, keys as sent: `line_items[0][price]`. */
  body: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

type StripeObject = Record<string, unknown> & { id: string };

export interface StripeStandIn {
  url: string;
  port: number;
  calls: StandInCall[];
  prices: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  customers: Map<string, StripeObject>;
  checkoutSessions: Map<string, StripeObject>;
  /** The API key it accepts; any other gets Stripe's 401. */
  apiKey: string;
  /** While set, every API call is answered with Stripe's own trouble (a 500 `api_error`), still recorded. */
  outage: boolean;
  /** While set, every API call is answered with Stripe's rate limit (a 429 `rate_limit_error`). */
  rateLimited: boolean;
  /**
   * Resources the key may not use, as a restricted key lacking them: `customers`, `subscriptions`,
   * `checkout_sessions`, `billing_portal`, `prices`, `payment_intents`, `charges`. A call to one gets Stripe's 403.
   */
  forbidden: Set<string>;
  /** Prices of the account's other mode (live, for the test key): Stripe names the mode when asked for one. */
  otherModePrices: Set<string>;
  /** Whether a Customer Portal configuration exists (Stripe's default once it is turned on). */
  portalConfigured: boolean;
  /**
   * The member pays on the checkout page of `sessionId` (as the browser's visit does): a
   * subscription in `status` is made for the session's customer and price, and the session completes.
   */
  pay(
    sessionId: string,
    status?: string,
    options?: { promotionCode?: string; card?: boolean },
  ): { session: StripeObject; subscription: StripeObject };
  /** The member pays a session of payment mode (a course): its payment intent and charge are made. */
  payOnce(sessionId: string): { session: StripeObject; paymentIntent: StripeObject; charge: StripeObject };
  /** The owner refunds a payment in Stripe's dashboard (all of it unless `amount`): the charge as it is then. */
  refund(paymentIntentId: string, amount?: number): StripeObject;
  /** The promotion codes the owner made in Stripe, by code. */
  promotionCodes: Map<string, StandInPromotion>;
  paymentIntents: Map<string, StripeObject>;
  charges: Map<string, StripeObject>;
  close(): Promise<void>;
}

/** The parameters Stripe's API takes on the calls the site makes (a subset of each: extend as needed). */
const KNOWN_PARAMETERS: Record<string, string[]> = {
  'POST /v1/customers': ['email', 'name', 'metadata', 'description', 'phone', 'address', 'expand'],
  'GET /v1/customers': ['limit', 'email', 'starting_after', 'ending_before', 'created', 'expand'],
  'POST /v1/checkout/sessions': [
    'mode',
    'customer',
    'customer_email',
    'client_reference_id',
    'line_items',
    'success_url',
    'cancel_url',
    'subscription_data',
    'metadata',
    'allow_promotion_codes',
    'payment_method_collection',
    'payment_intent_data',
    'discounts',
    'billing_address_collection',
    'locale',
    'expand',
  ],
  'GET /v1/checkout/sessions': ['limit', 'customer', 'subscription', 'status', 'starting_after', 'expand'],
  'POST /v1/billing_portal/sessions': [
    'customer',
    'return_url',
    'configuration',
    'locale',
    'flow_data',
    'expand',
  ],
  'GET /v1/billing_portal/configurations': ['limit', 'active', 'is_default', 'starting_after', 'expand'],
  'GET /v1/subscriptions': ['limit', 'customer', 'status', 'price', 'starting_after', 'expand'],
  'GET /v1/subscriptions/:id': ['expand'],
  'DELETE /v1/subscriptions/:id': ['invoice_now', 'prorate', 'cancellation_details', 'expand'],
  'GET /v1/prices/:id': ['expand'],
  'GET /v1/payment_intents/:id': ['expand', 'client_secret'],
  'GET /v1/payment_intents': ['limit', 'customer', 'created', 'starting_after', 'ending_before', 'expand'],
  'GET /v1/charges': [
    'limit',
    'customer',
    'payment_intent',
    'created',
    'starting_after',
    'ending_before',
    'expand',
  ],
  'GET /v1/prices': [
    'limit',
    'active',
    'type',
    'product',
    'currency',
    'recurring',
    'lookup_keys',
    'created',
    'starting_after',
    'ending_before',
    'expand',
  ],
};

const DAY_S = 24 * 60 * 60;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** A recurring price in Stripe's shape. */
export function stripePrice(
  priceId: string,
  fields: {
    amount?: number;
    currency?: string;
    interval?: 'month' | 'year' | null;
    active?: boolean;
    nickname?: string;
    usageType?: 'licensed' | 'metered';
    /** The product's id: a course's own product, say (its name is the id). */
    product?: string;
  } = {},
): StripeObject {
  const interval = fields.interval === undefined ? 'month' : fields.interval;
  return {
    id: priceId,
    object: 'price',
    active: fields.active ?? true,
    billing_scheme: 'per_unit',
    created: nowSeconds(),
    currency: fields.currency ?? 'gbp',
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: fields.nickname ?? null,
    product: fields.product ?? 'prod_standin',
    recurring: interval
      ? { interval, interval_count: 1, usage_type: fields.usageType ?? 'licensed', meter: null }
      : null,
    tax_behavior: 'unspecified',
    type: interval ? 'recurring' : 'one_time',
    unit_amount: fields.amount ?? 1200,
    unit_amount_decimal: String(fields.amount ?? 1200),
  };
}

/** A subscription in Stripe's shape (current API: the period lives on its items). */
export function stripeSubscription(fields: {
  id?: string;
  customer: string;
  status: string;
  userId?: string;
  priceId?: string;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  endedAt?: number | null;
}): StripeObject {
  const subscriptionId = fields.id ?? id('sub');
  const periodEnd = fields.periodEnd ?? nowSeconds() + 30 * DAY_S;
  return {
    id: subscriptionId,
    object: 'subscription',
    cancel_at: null,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    canceled_at: fields.status === 'canceled' ? nowSeconds() : null,
    collection_method: 'charge_automatically',
    created: nowSeconds() - DAY_S,
    currency: 'gbp',
    customer: fields.customer,
    ended_at: fields.endedAt ?? (fields.status === 'canceled' ? nowSeconds() : null),
    items: {
      object: 'list',
      data: [
        {
          id: id('si'),
          object: 'subscription_item',
          created: nowSeconds() - DAY_S,
          current_period_start: periodEnd - 30 * DAY_S,
          current_period_end: periodEnd,
          metadata: {},
          price: stripePrice(fields.priceId ?? 'price_monthly'),
          quantity: 1,
          subscription: subscriptionId,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscriptionId}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: fields.userId ? { userId: fields.userId } : {},
    start_date: nowSeconds() - DAY_S,
    status: fields.status,
    trial_end: null,
    trial_start: null,
  };
}

/** The product a price belongs to, as `expand` sends it. */
function productOf(productId: string): StripeObject {
  return {
    id: productId,
    object: 'product',
    name: productId === 'prod_standin' ? 'Architect Tier' : productId,
    active: true,
  };
}

/** `metadata[a]=1&metadata[b]=2` read back as `{ a: '1', b: '2' }`. */
function fieldsUnder(body: Record<string, string>, prefix: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body))
    if (
      name.startsWith(`${prefix}[`) &&
      name.endsWith(']') &&
      !name.slice(prefix.length + 1, -1).includes('[')
    )
      fields[name.slice(prefix.length + 1, -1)] = value;
  return fields;
}

function stripeError(res: ServerResponse, status: number, type: string, message: string, extra = {}) {
  send(res, status, { error: { type, message, ...extra } });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  res.end(JSON.stringify(body));
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location });
  res.end();
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(
  options: { apiKey?: string; port?: number } = {},
): Promise<StripeStandIn> {
  const state = {
    calls: [] as StandInCall[],
    prices: new Map<string, StripeObject>(),
    subscriptions: new Map<string, StripeObject>(),
    customers: new Map<string, StripeObject>(),
    checkoutSessions: new Map<string, StripeObject>(),
    portalSessions: new Map<string, StripeObject>(),
    promotionCodes: new Map<string, StandInPromotion>(),
    paymentIntents: new Map<string, StripeObject>(),
    charges: new Map<string, StripeObject>(),
    apiKey: options.apiKey ?? 'sk_test_standin0000000000000000',
  };
  const idempotency = new Map<string, { sent: string; status: number; answer: unknown }>();
  let url = '';
  const standIn: StripeStandIn = {
    url,
    port: 0,
    ...state,
    outage: false,
    rateLimited: false,
    forbidden: new Set<string>(),
    otherModePrices: new Set<string>(),
    portalConfigured: true,
    pay: (sessionId, status = 'active', options = {}) => {
      const session = state.checkoutSessions.get(sessionId);
      if (!session) throw new Error(`stand-in: no checkout session ${sessionId}`);
      return { session, subscription: complete(session, status, options)! };
    },
    payOnce: (sessionId) => {
      const session = state.checkoutSessions.get(sessionId);
      if (!session) throw new Error(`stand-in: no checkout session ${sessionId}`);
      complete(session, 'active');
      const paymentIntent = state.paymentIntents.get(String(session.payment_intent))!;
      return { session, paymentIntent, charge: state.charges.get(String(paymentIntent.latest_charge))! };
    },
    refund: (paymentIntentId, amount) => {
      const paymentIntent = state.paymentIntents.get(paymentIntentId);
      if (!paymentIntent) throw new Error(`stand-in: no payment intent ${paymentIntentId}`);
      const charge = state.charges.get(String(paymentIntent.latest_charge))!;
      const refunded = Math.min(
        Number(charge.amount),
        Number(charge.amount_refunded) + (amount ?? Number(charge.amount)),
      );
      Object.assign(charge, { amount_refunded: refunded, refunded: refunded >= Number(charge.amount) });
      return charge;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const address = new URL(req.url ?? '/', 'http://stand-in');
    const path = address.pathname;
    // Stripe's client sends the parameters of a GET or a DELETE in the address, others in the body.
    const raw = req.method === 'GET' || req.method === 'DELETE' ? address.search.slice(1) : await bodyOf(req);

    // The two pages a member's browser visits.
    const page = /^\/(checkout|portal)\/([\w-]+)$/.exec(path);
    if (page && req.method === 'GET') return visit(page[1]!, page[2]!, address, res);
    if (path.startsWith('/_stand-in/')) return control(req.method ?? 'GET', path, raw, res);

    const body = Object.fromEntries(new URLSearchParams(raw));
    state.calls.push({
      method: req.method ?? 'GET',
      path,
      body,
      authorization: req.headers.authorization,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    });
    if (req.headers.authorization !== `Bearer ${state.apiKey}`)
      return stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided: sk_test_****0000');
    if (standIn.outage)
      return stripeError(res, 500, 'api_error', 'An unknown error occurred (stand-in outage).');
    if (standIn.rateLimited)
      return stripeError(res, 429, 'rate_limit_error', 'Too many requests hit the API too quickly.', {
        code: 'rate_limit',
      });
    const resource =
      /^\/v1\/(checkout\/sessions|billing_portal|customers|subscriptions|prices|payment_intents|charges)/.exec(
        path,
      )?.[1];
    const named = resource === 'checkout/sessions' ? 'checkout_sessions' : resource;
    if (named && standIn.forbidden.has(named))
      // A restricted key lacking the resource: Stripe answers 403 (the package's StripePermissionError).
      return stripeError(
        res,
        403,
        'invalid_request_error',
        `The provided key 'rk_test_****0000' does not have the required permissions for this endpoint on account 'acct_standin'. Having the 'rak_${named}_write' permission would allow this request to continue.`,
      );
    // Stripe keeps an idempotency key for 24 hours: the same request again gets the first answer;
    // the key with other parameters is refused.
    const key = req.headers['idempotency-key'] as string | undefined;
    if (key && req.method === 'POST') {
      const seen = idempotency.get(key);
      const sent = JSON.stringify([path, body]);
      if (seen && seen.sent !== sent)
        return stripeError(
          res,
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      if (seen) return send(res, seen.status, seen.answer);
      const original = res.end.bind(res);
      const status = () => res.statusCode;
      let captured: unknown;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        try {
          captured = typeof chunk === 'string' ? JSON.parse(chunk) : undefined;
        } catch {
          captured = undefined;
        }
        if (captured !== undefined && status() < 500)
          idempotency.set(key, { sent, status: status(), answer: captured });
        return (original as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
      }) as typeof res.end;
    }

    // Stripe refuses a parameter it does not know (the top-level name, before any `[`).
    const known = KNOWN_PARAMETERS[`${req.method} ${path.replace(/\/(sub|cus|price|pi)_[\w-]+$/, '/:id')}`];
    const unknown =
      known &&
      Object.keys(body)
        .map((key) => key.split('[')[0]!)
        .find((name) => !known.includes(name));
    if (unknown)
      return stripeError(res, 400, 'invalid_request_error', `Received unknown parameter: ${unknown}`, {
        param: unknown,
      });
    if (req.method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: { userId: body['metadata[userId]'] },
        livemode: false,
      };
      state.customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === 'GET' && path === '/v1/customers')
      return send(res, 200, {
        object: 'list',
        data: [...state.customers.values()].slice(0, 1),
        has_more: false,
        url: '/v1/customers',
      });
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = body.customer;
      if (customer && !state.customers.has(customer))
        return stripeError(res, 400, 'invalid_request_error', `No such customer: '${customer}'`, {
          code: 'resource_missing',
          param: 'customer',
        });
      const price = body['line_items[0][price]'];
      if (!price || !state.prices.has(price))
        return stripeError(res, 400, 'invalid_request_error', `No such price: '${price}'`, {
          code: 'resource_missing',
          param: 'line_items[0][price]',
        });
      const refusal = checkoutRefusal(body);
      if (refusal)
        return stripeError(res, 400, 'invalid_request_error', refusal.message, { param: refusal.param });
      const chosen = state.prices.get(price)!;
      const recurring = chosen.recurring as { usage_type?: string } | null;
      const refuse = (message: string) =>
        stripeError(res, 400, 'invalid_request_error', message, { param: 'line_items[0][price]' });
      if (!chosen.active)
        return refuse(`The price specified is inactive. This field only accepts active prices.`);
      const wrongMode = priceModeRefusal(body.mode, Boolean(recurring));
      if (wrongMode) return refuse(wrongMode);
      if (recurring?.usage_type === 'metered' && body['line_items[0][quantity]'] !== undefined)
        return refuse(
          'Quantity should not be specified where usage_type is `metered`. Remove quantity from `line_items[0]`.',
        );
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        customer,
        client_reference_id: body.client_reference_id ?? null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        subscription: null as string | null,
        price,
        subscriptionUserId: body['subscription_data[metadata][userId]'],
        metadata: fieldsUnder(body, 'metadata'),
        amount_total: chosen.unit_amount,
        currency: chosen.currency,
        payment_intent: null as string | null,
        trialDays: body['subscription_data[trial_period_days]'],
        trialEndBehavior: body['subscription_data[trial_settings][end_behavior][missing_payment_method]'],
        allowPromotionCodes: body.allow_promotion_codes === 'true',
        paymentMethodCollection: body.payment_method_collection ?? 'always',
        paymentIntentMetadata: fieldsUnder(body, 'payment_intent_data[metadata]'),
        url: `${url}/checkout/${sessionId}`,
        livemode: false,
      };
      state.checkoutSessions.set(sessionId, session);
      return send(res, 200, session);
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!body.customer || !state.customers.has(body.customer))
        return stripeError(res, 400, 'invalid_request_error', `No such customer: '${body.customer}'`, {
          code: 'resource_missing',
          param: 'customer',
        });
      const sessionId = id('bps');
      const session = {
        id: sessionId,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url,
        url: `${url}/portal/${sessionId}`,
        livemode: false,
      };
      state.portalSessions.set(sessionId, session);
      return send(res, 200, session);
    }
    if (req.method === 'GET' && path === '/v1/checkout/sessions')
      return send(res, 200, {
        object: 'list',
        data: [...state.checkoutSessions.values()].slice(0, Number(body.limit ?? 10)),
        has_more: false,
        url: '/v1/checkout/sessions',
      });
    if (req.method === 'GET' && path === '/v1/billing_portal/configurations')
      return send(res, 200, {
        object: 'list',
        data: standIn.portalConfigured
          ? [{ id: 'bpc_standin', object: 'billing_portal.configuration', active: true, is_default: true }]
          : [],
        has_more: false,
        url: '/v1/billing_portal/configurations',
      });
    if (req.method === 'GET' && path === '/v1/subscriptions') {
      // Stripe's default leaves out the canceled ones; status=all includes them.
      const all = [...state.subscriptions.values()].filter(
        (subscription) =>
          (!body.customer || subscription.customer === body.customer) &&
          (body.status === 'all'
            ? true
            : body.status
              ? subscription.status === body.status
              : subscription.status !== 'canceled'),
      );
      return send(res, 200, {
        object: 'list',
        data: all.map((subscription) => withDiscountsAsAsked(subscription, {})),
        has_more: false,
        url: '/v1/subscriptions',
      });
    }
    // `expand` names fields to send whole: a price's product is sent as its object then.
    const expanded = (object: StripeObject, field: string) =>
      Object.entries(body).some(([name, value]) => name.startsWith('expand') && value === field)
        ? { ...object, product: productOf(String(object.product)) }
        : object;
    if (req.method === 'GET' && path === '/v1/prices') {
      const listed = [...state.prices.values()]
        .filter((price) => body.active === undefined || String(price.active) === body.active)
        .reverse()
        .slice(0, Number(body.limit ?? 10))
        .map((price) => expanded(price, 'data.product'));
      return send(res, 200, { object: 'list', data: listed, has_more: false, url: '/v1/prices' });
    }
    for (const [listed, objects] of [
      ['/v1/payment_intents', state.paymentIntents],
      ['/v1/charges', state.charges],
    ] as const)
      if (req.method === 'GET' && path === listed)
        return send(res, 200, {
          object: 'list',
          data: [...objects.values()].slice(0, Number(body.limit ?? 10)),
          has_more: false,
          url: listed,
        });
    const intent = /^\/v1\/payment_intents\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && intent) {
      const found = state.paymentIntents.get(intent[1]!);
      if (!found)
        return stripeError(res, 404, 'invalid_request_error', `No such payment_intent: '${intent[1]}'`, {
          code: 'resource_missing',
          param: 'intent',
        });
      const whole = Object.entries(body).some(
        ([name, value]) => name.startsWith('expand') && value === 'latest_charge',
      );
      return send(
        res,
        200,
        whole ? { ...found, latest_charge: state.charges.get(String(found.latest_charge)) } : found,
      );
    }
    const one = /^\/v1\/(prices|subscriptions)\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && one && one[1] === 'prices' && standIn.otherModePrices.has(one[2]!))
      return stripeError(
        res,
        404,
        'invalid_request_error',
        `No such price: '${one[2]}'; a similar object exists in live mode, but a test mode key was used to make this request.`,
        { code: 'resource_missing', param: 'id' },
      );
    if (req.method === 'GET' && one) {
      const stored = (one[1] === 'prices' ? state.prices : state.subscriptions).get(one[2]!);
      const found =
        stored && (one[1] === 'prices' ? expanded(stored, 'product') : withDiscountsAsAsked(stored, body));
      if (!found)
        return stripeError(
          res,
          404,
          'invalid_request_error',
          `No such ${one[1]!.slice(0, -1)}: '${one[2]}'`,
          {
            code: 'resource_missing',
            param: 'id',
          },
        );
      return send(res, 200, found);
    }
    const cancel = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    if (req.method === 'DELETE' && cancel) {
      const subscription = state.subscriptions.get(cancel[1]!);
      if (!subscription)
        return stripeError(res, 404, 'invalid_request_error', `No such subscription: '${cancel[1]}'`, {
          code: 'resource_missing',
          param: 'id',
        });
      if (subscription.status === 'canceled')
        return stripeError(
          res,
          400,
          'invalid_request_error',
          'A canceled subscription can only update its cancellation_details.',
        );
      Object.assign(subscription, {
        status: 'canceled',
        canceled_at: nowSeconds(),
        ended_at: nowSeconds(),
        cancellation_details: { comment: body['cancellation_details[comment]'] ?? null },
      });
      return send(res, 200, subscription);
    }
    return stripeError(
      res,
      404,
      'invalid_request_error',
      `Unrecognized request URL (${req.method}: ${path}).`,
    );
  }

  /** The member's browser on Stripe's pages: checkout pays and goes back; `?cancel` goes back unpaid. */
  function visit(kind: string, sessionId: string, address: URL, res: ServerResponse) {
    if (kind === 'portal') {
      const session = state.portalSessions.get(sessionId);
      return session
        ? redirect(res, String(session.return_url))
        : send(res, 404, { error: 'unknown portal session' });
    }
    const session = state.checkoutSessions.get(sessionId);
    if (!session) return send(res, 404, { error: 'unknown checkout session' });
    if (address.searchParams.has('cancel')) return redirect(res, String(session.cancel_url));
    // `?promo=CODE`: the member typed a promotion code on the page.
    complete(session, 'active', { promotionCode: address.searchParams.get('promo') ?? undefined });
    return redirect(res, String(session.success_url));
  }

  /**
   * The member paid: a one-off payment (payment mode) or a subscription, on trial when the session
   * has one (no card taken when Checkout need not collect one), with the promotion code typed.
   */
  function complete(
    session: StripeObject,
    status: string,
    options: { promotionCode?: string; card?: boolean } = {},
  ): StripeObject | undefined {
    if (session.mode === 'payment') {
      const { paymentIntent, charge } = oneOffPayment(
        session,
        Number(session.amount_total),
        String(session.currency),
      );
      state.paymentIntents.set(paymentIntent.id, paymentIntent);
      state.charges.set(charge.id, charge);
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: paymentIntent.id,
      });
      return undefined;
    }
    const trial = Number(session.trialDays ?? 0) > 0;
    const card = options.card ?? !(trial && session.paymentMethodCollection === 'if_required');
    const promotion = options.promotionCode ? standIn.promotionCodes.get(options.promotionCode) : undefined;
    const extra = trialAndDiscount(session, promotion, card);
    const subscription = stripeSubscription({
      customer: String(session.customer),
      status: (extra.status as string | undefined) ?? status,
      userId: session.subscriptionUserId as string | undefined,
      priceId: String(session.price),
      periodEnd: extra.trial_end as number | undefined,
    });
    Object.assign(subscription, extra, { status: subscription.status });
    state.subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    return subscription;
  }

  /** For browser tests, which run in another process: read what was asked, set what Stripe holds. */
  function control(method: string, path: string, raw: string, res: ServerResponse) {
    if (method === 'GET' && path === '/_stand-in/checkout-sessions')
      return send(res, 200, [...state.checkoutSessions.values()]);
    if (method === 'GET' && path === '/_stand-in/calls') return send(res, 200, state.calls);
    if (method === 'POST' && path === '/_stand-in/promotion-codes') {
      const promotion = JSON.parse(raw) as StandInPromotion;
      standIn.promotionCodes.set(promotion.code, promotion);
      return send(res, 200, promotion);
    }
    if (method === 'POST' && path === '/_stand-in/refunds') {
      const { paymentIntent } = JSON.parse(raw) as { paymentIntent: string };
      return send(res, 200, standIn.refund(paymentIntent));
    }
    const target = /^\/_stand-in\/(prices|subscriptions)$/.exec(path);
    if (method === 'POST' && target) {
      const object = JSON.parse(raw) as StripeObject;
      (target[1] === 'prices' ? state.prices : state.subscriptions).set(object.id, object);
      return send(res, 200, object);
    }
    return send(res, 404, { error: 'unknown stand-in control' });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, { error: { type: 'api_error', message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  url = `http://127.0.0.1:${port}`;
  Object.assign(standIn, { url, port });
  return standIn;
}
