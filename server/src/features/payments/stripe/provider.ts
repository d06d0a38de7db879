// The Stripe adapter of the PaymentProvider port. Seams, in order: the permissions Test reads,
// Checkout and the portal, events (verifyEvent), subscriptions (read, list, cancel), plans, Test.
import { createHash } from 'node:crypto';
import type { PaymentPlan, PriceListing } from '@common/payment-plans';
import { ENDED_STATUSES } from '@common/schemas/billing';
import type { PaymentsCheck } from '@common/schemas/payments';
import type Stripe from 'stripe';
import type { ApiBase } from '../../../settings/payments-env';
import {
  type CheckoutBase,
  type CheckoutInput,
  type CourseCheckoutInput,
  InvalidEventError,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
  type PriceReading,
  ProviderError,
  type SubscriptionState,
} from '../payment-provider';
import { call, errorOf, isMissing, isStripeError, providerError } from './errors';
import { stripePackage } from './package';
import { listPrices, readPrice } from './prices';
import { courseCheckoutParams, readPayment } from './purchases';
import { toPaymentEvent, toPlan, toSubscriptionState } from './shapes';
import { testSettings } from './test-checks';

/** Stripe's own recommendation: events older than five minutes are refused (replays of a captured request). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A call to Stripe that takes longer than this fails, and the member or Stripe tries again. */
const REQUEST_TIMEOUT_MS = 20_000;

export interface StripeSettings {
  secretKey?: string;
  webhookSecret?: string;
  apiBase?: ApiBase;
}

/** The Stripe adapter of the PaymentProvider port, over the official `stripe` package. */
export class StripeProvider implements PaymentProvider {
  private clientValue: Stripe | null = null;

  constructor(private readonly settings: StripeSettings) {}

  private async client(): Promise<Stripe> {
    if (!this.settings.secretKey) throw new ProviderError('No Stripe secret key is set.', false);
    const StripeClient = await stripePackage();
    this.clientValue ??= new StripeClient(this.settings.secretKey, {
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

  createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string; sessionId: string }> {
    return this.checkout(input, (customerId) => this.startCheckout(input, customerId));
  }

  createCourseCheckout(
    input: CourseCheckoutInput,
  ): Promise<{ url: string; customerId: string; sessionId: string }> {
    return this.checkout(input, async (customerId) =>
      (await this.client()).checkout.sessions.create(courseCheckoutParams(input, customerId)),
    );
  }

  async readPayment(id: string): Promise<PaymentState | null> {
    return readPayment(await this.client(), id);
  }

  /** A checkout for the member's customer (made for them the first time, and kept). */
  private async checkout(
    input: CheckoutBase,
    start: (customerId: string) => Promise<Stripe.Checkout.Session>,
  ): Promise<{ url: string; customerId: string; sessionId: string }> {
    return call(async () => {
      let customerId = input.customerId ?? (await this.createCustomer(input));
      let session: Stripe.Checkout.Session;
      try {
        session = await start(customerId);
      } catch (error) {
        // A customer made with a test key is unknown to the live key (and the other way round).
        if (!input.customerId || errorOf(error)?.param !== 'customer') throw error;
        customerId = await this.createCustomer(input);
        session = await start(customerId);
      }
      if (!session.url) throw new ProviderError('Stripe did not give a checkout page.', true);
      return { url: session.url, customerId, sessionId: session.id };
    });
  }

  private async startCheckout(input: CheckoutInput, customerId: string): Promise<Stripe.Checkout.Session> {
    const trial = input.trial;
    return (await this.client()).checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: input.userId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      ...(input.promotionCodes ? { allow_promotion_codes: true } : {}),
      // No card asked during the trial; Stripe cancels it at the trial's end unless one was added.
      ...(trial?.withoutCard ? { payment_method_collection: 'if_required' as const } : {}),
      subscription_data: {
        // Every later event about the subscription names the member, whatever order they come in.
        metadata: { userId: input.userId },
        ...(trial ? { trial_period_days: trial.days } : {}),
        ...(trial?.withoutCard
          ? { trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } }
          : {}),
      },
      metadata: { userId: input.userId },
    });
  }

  /**
   * One customer per member: made before the first checkout and kept, so a member who starts two
   * checkouts (two tabs) is still one customer. The idempotency key covers a double click too.
   */
  private async createCustomer(input: CheckoutBase): Promise<string> {
    // The key covers all that is sent: Stripe refuses a key reused with other parameters (a member
    // who renamed themselves), and a retry of the same request is answered the same customer.
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([input.userId, input.email, input.name]))
      .digest('hex')
      .slice(0, 32);
    const customer = await (await this.client()).customers.create(
      { email: input.email, name: input.name, metadata: { userId: input.userId } },
      { idempotencyKey: `members-customer-${fingerprint}` },
    );
    return customer.id;
  }

  async createPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    return call(async () => {
      const session = await (await this.client()).billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return { url: session.url };
    });
  }

  async verifyEvent(payload: Buffer, signature: string | undefined): Promise<PaymentEvent> {
    if (!this.settings.webhookSecret) throw new InvalidEventError('No webhook signing secret is set.');
    if (!signature) throw new InvalidEventError('The Stripe-Signature header is missing.');
    const { webhooks } = await stripePackage();
    let event: Stripe.Event;
    try {
      event = webhooks.constructEvent(
        payload,
        signature,
        this.settings.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      throw new InvalidEventError(
        isStripeError(error, 'StripeSignatureVerificationError')
          ? 'The signature does not match, or the event is older than five minutes.'
          : 'The body is not a Stripe event.',
      );
    }
    return toPaymentEvent(event);
  }

  async readSubscription(id: string): Promise<SubscriptionState | null> {
    try {
      // The discount's coupon and code, so the member sees what applies ("SPRING: 20% off").
      return toSubscriptionState(
        await (await this.client()).subscriptions.retrieve(id, {
          expand: ['discounts', 'discounts.source.coupon', 'discounts.promotion_code'],
        }),
      );
    } catch (error) {
      if (isMissing(error)) return null;
      throw providerError(error);
    }
  }

  async listLiveSubscriptions(customerId: string): Promise<SubscriptionState[]> {
    try {
      const live: SubscriptionState[] = [];
      // 'all' includes the ones Stripe leaves out by default (incomplete, trialing ones are in
      // either way); the ended ones are dropped here.
      for await (const subscription of (await this.client()).subscriptions.list({
        customer: customerId,
        status: 'all',
        limit: 100,
      })) {
        const state = toSubscriptionState(subscription);
        if (!ENDED_STATUSES.includes(state.status)) live.push(state);
      }
      return live;
    } catch (error) {
      if (isMissing(error)) return [];
      throw providerError(error);
    }
  }

  async cancelSubscription(id: string, reason: string): Promise<SubscriptionState | null> {
    try {
      const ended = await (await this.client()).subscriptions.cancel(id, {
        // Nothing more is charged for a period the member will not have: no final invoice, no proration.
        invoice_now: false,
        prorate: false,
        cancellation_details: { comment: reason },
      });
      return toSubscriptionState(ended);
    } catch (error) {
      if (isMissing(error)) return null;
      // Stripe refuses to cancel a subscription that has already ended; one that has is what was wanted.
      if (isStripeError(error, 'StripeInvalidRequestError')) {
        const now = await this.readSubscription(id);
        if (!now || ENDED_STATUSES.includes(now.status)) return now;
      }
      throw providerError(error);
    }
  }

  async readPlans(priceIds: readonly string[]): Promise<PaymentPlan[]> {
    const plans: PaymentPlan[] = [];
    for (const id of priceIds) {
      try {
        const price = await (await this.client()).prices.retrieve(id);
        if (price.active && price.recurring && price.recurring.usage_type !== 'metered')
          plans.push(toPlan(price));
      } catch (error) {
        if (!isMissing(error)) throw providerError(error);
      }
    }
    return plans;
  }

  async listPrices(): Promise<PriceListing[]> {
    return listPrices(await this.client());
  }

  async readPrice(id: string): Promise<PriceReading> {
    return readPrice(await this.client(), id);
  }

  /** Whether Stripe accepts the key, lets it do all the site needs, and has the prices (test-checks.ts). */
  async test(priceIds: readonly string[]): Promise<PaymentsCheck[]> {
    return testSettings(await this.client(), this.settings.secretKey, priceIds);
  }
}
