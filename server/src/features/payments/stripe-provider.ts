import { createHash } from 'node:crypto';
import { describePlan, type PaymentPlan } from '@common/payment-plans';
import { type PaymentsCheck, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@common/schemas/payments';
import Stripe from 'stripe';
import type { ApiBase } from '../../settings/payments-env';
import {
  type CheckoutInput,
  InvalidEventError,
  type PaymentEvent,
  type PaymentEventKind,
  type PaymentProvider,
  ProviderError,
  type SubscriptionState,
} from './payment-provider';

/** Stripe's own recommendation: events older than five minutes are refused (replays of a captured request). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A call to Stripe that takes longer than this fails, and the member or Stripe tries again. */
const REQUEST_TIMEOUT_MS = 20_000;

export interface StripeSettings {
  secretKey?: string;
  webhookSecret?: string;
  apiBase?: ApiBase;
}

type Loose = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
/** An expandable field: an id, or the object with its id. */
const idOf = (value: unknown): string | undefined =>
  text(value) ?? (value && typeof value === 'object' ? text((value as Loose).id) : undefined);
const dateOf = (seconds: unknown): Date | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;

/** The Stripe adapter of the PaymentProvider port, over the official `stripe` package. */
export class StripeProvider implements PaymentProvider {
  private clientValue: Stripe | null = null;

  constructor(private readonly settings: StripeSettings) {}

  private get client(): Stripe {
    if (!this.settings.secretKey) throw new ProviderError('No Stripe secret key is set.', false);
    this.clientValue ??= new Stripe(this.settings.secretKey, {
      maxNetworkRetries: 1,
      timeout: REQUEST_TIMEOUT_MS,
      telemetry: false,
      appInfo: { name: 'members-site' },
      ...(this.settings.apiBase
        ? {
            host: this.settings.apiBase.host,
            port: this.settings.apiBase.port,
            protocol: this.settings.apiBase.protocol,
          }
        : {}),
    });
    return this.clientValue;
  }

  async createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string }> {
    return call(async () => {
      let customerId = input.customerId ?? (await this.createCustomer(input));
      let session: Stripe.Checkout.Session;
      try {
        session = await this.startCheckout(input, customerId);
      } catch (error) {
        // A customer made with a test key is unknown to the live key (and the other way round).
        if (!input.customerId || errorOf(error)?.param !== 'customer') throw error;
        customerId = await this.createCustomer(input);
        session = await this.startCheckout(input, customerId);
      }
      if (!session.url) throw new ProviderError('Stripe did not give a checkout page.', true);
      return { url: session.url, customerId };
    });
  }

  private startCheckout(input: CheckoutInput, customerId: string): Promise<Stripe.Checkout.Session> {
    return this.client.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: input.userId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      // Every later event about the subscription names the member, whatever order they come in.
      subscription_data: { metadata: { userId: input.userId } },
      metadata: { userId: input.userId },
    });
  }

  /**
   * One customer per member: made before the first checkout and kept, so a member who starts two
   * checkouts (two tabs) is still one customer. The idempotency key covers a double click too.
   */
  private async createCustomer(input: CheckoutInput): Promise<string> {
    const fingerprint = createHash('sha256')
      .update(`${input.userId}\n${input.email}`)
      .digest('hex')
      .slice(0, 32);
    const customer = await this.client.customers.create(
      { email: input.email, name: input.name, metadata: { userId: input.userId } },
      { idempotencyKey: `members-customer-${fingerprint}` },
    );
    return customer.id;
  }

  async createPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    return call(async () => {
      const session = await this.client.billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return { url: session.url };
    });
  }

  verifyEvent(payload: Buffer, signature: string | undefined): PaymentEvent {
    if (!this.settings.webhookSecret) throw new InvalidEventError('No webhook signing secret is set.');
    if (!signature) throw new InvalidEventError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        payload,
        signature,
        this.settings.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      throw new InvalidEventError(
        error instanceof Stripe.errors.StripeSignatureVerificationError
          ? 'The signature does not match, or the event is older than five minutes.'
          : 'The body is not a Stripe event.',
      );
    }
    return toPaymentEvent(event);
  }

  async readSubscription(id: string): Promise<SubscriptionState | null> {
    try {
      return toSubscriptionState(await this.client.subscriptions.retrieve(id));
    } catch (error) {
      if (isMissing(error)) return null;
      throw providerError(error);
    }
  }

  async readPlans(priceIds: readonly string[]): Promise<PaymentPlan[]> {
    const plans: PaymentPlan[] = [];
    for (const id of priceIds) {
      try {
        const price = await this.client.prices.retrieve(id);
        if (price.active && price.recurring) plans.push(toPlan(price));
      } catch (error) {
        if (!isMissing(error)) throw providerError(error);
      }
    }
    return plans;
  }

  async test(priceIds: readonly string[]): Promise<PaymentsCheck[]> {
    const mode = this.settings.secretKey?.includes('_live_') ? 'live' : 'test';
    const keyAccepted: PaymentsCheck = {
      label: 'Secret key',
      outcome: 'ok',
      detail: `Stripe accepted the key (${mode} mode).`,
    };
    const checks: PaymentsCheck[] = [];
    try {
      // Any authenticated call proves the key; a restricted key with Customers: Write reads customers.
      if (priceIds.length === 0) await this.client.customers.list({ limit: 1 });
    } catch (error) {
      return [{ label: 'Secret key', outcome: 'failed', detail: keyProblem(error) }];
    }
    for (const id of priceIds) {
      try {
        const price = await this.client.prices.retrieve(id);
        checks.push(priceCheck(price));
      } catch (error) {
        if (isAuthentication(error))
          return [{ label: 'Secret key', outcome: 'failed', detail: keyProblem(error) }];
        checks.push({
          label: `Price ${id}`,
          outcome: 'failed',
          detail: isMissing(error)
            ? `Stripe has no such price in ${mode} mode. Copy the price ID (price_…) from the product's page in Stripe, in the same mode as the key.`
            : isPermission(error)
              ? 'The key may not read prices: give the restricted key “Prices: Read”.'
              : providerError(error).message,
        });
      }
    }
    return [keyAccepted, ...checks];
  }
}

function priceCheck(price: Stripe.Price): PaymentsCheck {
  const label = `Price ${price.id}`;
  const described = describePlan(toPlan(price), 'en-GB');
  if (!price.active)
    return {
      label,
      outcome: 'failed',
      detail: `${described}, but it is archived in Stripe: members could not buy it.`,
    };
  if (!price.recurring)
    return {
      label,
      outcome: 'failed',
      detail: `${described}, paid once: membership is a subscription, so choose a recurring price.`,
    };
  return { label, outcome: 'ok', detail: `${described}, recurring.` };
}

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

function toPlan(price: Stripe.Price): PaymentPlan {
  return {
    id: price.id,
    name: price.nickname ?? null,
    amount: typeof price.unit_amount === 'number' ? price.unit_amount : null,
    currency: price.currency ?? null,
    interval: INTERVALS.find((interval) => interval === price.recurring?.interval) ?? null,
    intervalCount: price.recurring?.interval_count ?? 1,
  };
}

const KINDS: Record<string, PaymentEventKind> = {
  'checkout.session.completed': 'checkout-completed',
  'invoice.paid': 'payment-succeeded',
  'invoice.payment_succeeded': 'payment-succeeded',
  'invoice.payment_failed': 'payment-failed',
};

/** Stripe's event in the site's words. Fields are read defensively: accounts pin older API versions. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const object = (event.data?.object ?? {}) as unknown as Loose;
  const base = {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    livemode: Boolean(event.livemode),
  };
  if (event.type.startsWith('customer.subscription.')) {
    return {
      ...base,
      kind: 'subscription-changed',
      subscriptionId: idOf(object.id),
      customerId: idOf(object.customer),
      userId: text((object.metadata as Loose | undefined)?.userId),
    };
  }
  const kind = KINDS[event.type] ?? 'other';
  if (kind === 'checkout-completed') {
    // A one-off payment made through another Checkout is not membership.
    if (object.mode !== 'subscription') return { ...base, kind: 'other' };
    return {
      ...base,
      kind,
      userId: text(object.client_reference_id),
      customerId: idOf(object.customer),
      subscriptionId: idOf(object.subscription),
    };
  }
  if (kind === 'payment-succeeded' || kind === 'payment-failed') {
    const parent = object.parent as Loose | undefined;
    const details = parent?.subscription_details as Loose | undefined;
    return {
      ...base,
      kind,
      customerId: idOf(object.customer),
      // Newer API versions name it under parent.subscription_details; older ones on the invoice.
      subscriptionId: idOf(details?.subscription) ?? idOf(object.subscription),
      nextAttemptAt: dateOf(object.next_payment_attempt),
      attemptCount: typeof object.attempt_count === 'number' ? object.attempt_count : undefined,
    };
  }
  return { ...base, kind: 'other' };
}

export function toSubscriptionState(subscription: Stripe.Subscription): SubscriptionState {
  const loose = subscription as unknown as Loose;
  const items = (subscription.items?.data ?? []) as unknown as Loose[];
  // Newer API versions keep the period on each item; older ones on the subscription.
  const ends = items
    .map((item) => item.current_period_end)
    .filter((end): end is number => typeof end === 'number');
  const periodEnd = ends.length > 0 ? Math.min(...ends) : loose.current_period_end;
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(subscription.status)
    ? (subscription.status as SubscriptionStatus)
    : 'incomplete';
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status,
    userId: text(subscription.metadata?.userId),
    priceId: idOf(items[0]?.price) ?? null,
    currentPeriodEnd: dateOf(periodEnd),
    cancelAtPeriodEnd:
      Boolean(subscription.cancel_at_period_end) || typeof subscription.cancel_at === 'number',
    cancelAt: dateOf(subscription.cancel_at),
    endedAt: dateOf(subscription.ended_at),
  };
}

const errorOf = (error: unknown) => error as Partial<Stripe.errors.StripeError> | undefined;
const isMissing = (error: unknown) =>
  errorOf(error)?.statusCode === 404 || errorOf(error)?.code === 'resource_missing';
const isAuthentication = (error: unknown) =>
  error instanceof Stripe.errors.StripeAuthenticationError || errorOf(error)?.statusCode === 401;
const isPermission = (error: unknown) =>
  error instanceof Stripe.errors.StripePermissionError || errorOf(error)?.statusCode === 403;

function keyProblem(error: unknown): string {
  if (isAuthentication(error))
    return 'Stripe refused the key: it is not a valid key, or it was deleted or rolled.';
  if (isPermission(error))
    return 'Stripe accepted the key, but it may not do what the site needs: see the permissions listed below.';
  return providerError(error).message;
}

/**
 * Stripe's failure in plain words. Stripe's own messages are never passed on: some quote part of
 * the key ("Invalid API Key provided: sk_test_****1234").
 */
export function providerError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = errorOf(error);
  const details = { type: e?.type, code: e?.code, status: e?.statusCode, requestId: e?.requestId };
  if (error instanceof Stripe.errors.StripeConnectionError)
    return new ProviderError('Stripe could not be reached. Please try again in a moment.', true, details);
  if (isAuthentication(error))
    return new ProviderError(
      'Stripe refused the site’s key: the owner needs to check the Payments settings.',
      false,
      details,
    );
  if (isPermission(error))
    return new ProviderError(
      'The site’s Stripe key lacks a permission: the owner needs to check the Payments settings.',
      false,
      details,
    );
  if (error instanceof Stripe.errors.StripeRateLimitError || (e?.statusCode ?? 0) >= 500)
    return new ProviderError(
      'Stripe is busy or having trouble. Please try again in a moment.',
      true,
      details,
    );
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    return new ProviderError(
      'Stripe refused the request: the owner needs to check the Payments settings (the prices).',
      false,
      details,
    );
  return new ProviderError('Stripe could not be reached. Please try again in a moment.', true, details);
}

async function call<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    throw providerError(error);
  }
}
