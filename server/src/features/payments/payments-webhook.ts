import { PAYING_STATUSES, type SubscriptionStatus } from '@common/schemas/billing';
import type { WebhookOutcome } from '@common/schemas/payments';
import type { Tier } from '@common/schemas/user';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import { BILLING_FIELDS, type BillingRecord } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { MembershipTiers } from './membership-tier';
import type { PaymentEventsRepository } from './payment-events.repository';
import {
  InvalidEventError,
  type PaymentEvent,
  type PaymentProvider,
  ProviderError,
  type SubscriptionState,
} from './payment-provider';
import { paymentFailedMail } from './payments-mail';
import type { PaymentsSettings } from './payments-settings';

/** A claim older than this belongs to a process that died while handling the event: it is taken over. */
export const STALE_CLAIM_MS = 2 * 60 * 1000;

/**
 * The tier a subscription's status gives: paid while it is active, on trial or past due (the
 * grace while Stripe retries a failed payment), free once it has ended. null: no change (a first
 * payment still under way, or a status the site does not know).
 */
export function tierOf(status: SubscriptionStatus): Tier | null {
  if (PAYING_STATUSES.includes(status)) return 'paid';
  if (status === 'canceled' || status === 'unpaid' || status === 'incomplete_expired' || status === 'paused')
    return 'free';
  return null;
}

const isLive = (status: SubscriptionStatus | undefined) =>
  Boolean(status && PAYING_STATUSES.includes(status));

export interface WebhookDeps {
  settings: PaymentsSettings;
  events: PaymentEventsRepository;
  users: UsersRepository;
  tiers: MembershipTiers;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
}

/**
 * Stripe's word on a member's subscription, and the only word that moves a paid tier on its
 * own. Each event is verified over its raw body, handled once (its id claimed in the store), and
 * taken as a prompt to read the subscription as it is now at Stripe: the state decides, not the
 * event, so events arriving late, twice or out of order end in the right tier.
 */
export class PaymentsWebhook {
  constructor(private readonly deps: WebhookDeps) {}

  async receive(
    payload: Buffer,
    signature: string | undefined,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    const settings = await this.deps.settings.effective();
    const provider = this.deps.settings.providerFor(settings);
    if (!settings.webhookSecret || !provider)
      throw new AppError('UNAVAILABLE', 'Payments are not set up on this site yet.');
    let event: PaymentEvent;
    try {
      event = await provider.verifyEvent(payload, signature);
    } catch (error) {
      if (error instanceof InvalidEventError) throw new AppError('VALIDATION', error.message);
      throw error;
    }
    const claim = await this.deps.events.claim(event.id, event.type, STALE_CLAIM_MS);
    if (claim === 'done') return { duplicate: true };
    // Not acknowledged: should the other delivery fail, Stripe's next one is handled.
    if (claim === 'busy')
      throw new AppError('CONFLICT', 'This event is being handled right now; send it again later.');
    try {
      const outcome = await this.handle(event, provider, request);
      await this.deps.events.finish(event.id);
      return outcome;
    } catch (error) {
      await this.deps.events.release(event.id);
      if (error instanceof ProviderError) {
        this.deps.log.warn(
          { ...error.details, eventId: event.id, type: event.type },
          'Stripe event not handled yet',
        );
        throw new AppError('UNAVAILABLE', 'Stripe could not be asked about this event; send it again later.');
      }
      throw error;
    }
  }

  private async handle(
    event: PaymentEvent,
    provider: PaymentProvider,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    if (event.kind === 'other') return { ignored: 'not an event the site acts on' };
    const subscription = event.subscriptionId ? await provider.readSubscription(event.subscriptionId) : null;
    const user = await this.memberOf(event, subscription);
    if (!user) {
      this.deps.log.warn(
        { eventId: event.id, type: event.type },
        'Stripe event about no member of this site',
      );
      return { ignored: 'no member of this site' };
    }
    await this.sync(user, event, subscription, request);
    if (event.kind === 'payment-failed') await this.tellOwners(user, event);
    return { handled: true };
  }

  /** The member an event is about: named by the checkout or the subscription, else by their Stripe customer. */
  private async memberOf(
    event: PaymentEvent,
    subscription: SubscriptionState | null,
  ): Promise<UserDoc | null> {
    for (const id of [event.userId, subscription?.userId]) {
      const user = id ? await this.deps.users.findById(id) : null;
      if (user) return user;
    }
    for (const [field, value] of [
      [BILLING_FIELDS.subscriptionId, subscription?.id ?? event.subscriptionId],
      [BILLING_FIELDS.customerId, subscription?.customerId || event.customerId],
    ] as const) {
      if (!value) continue;
      const [user] = await this.deps.users.find({ [field]: value }, { limit: 1 });
      if (user) return user;
    }
    return null;
  }

  private async sync(
    user: UserDoc,
    event: PaymentEvent,
    subscription: SubscriptionState | null,
    request: FastifyRequest,
  ): Promise<void> {
    const observedAt = new Date();
    const current = user.billing ?? {};
    // A late event about an ended subscription must not undo the member's newer, live one.
    if (
      subscription &&
      current.subscriptionId &&
      current.subscriptionId !== subscription.id &&
      isLive(current.status) &&
      !isLive(subscription.status)
    )
      return;
    const record: BillingRecord = {
      ...current,
      customerId: subscription?.customerId || current.customerId || event.customerId,
      observedAt,
    };
    if (subscription) {
      Object.assign(record, {
        subscriptionId: subscription.id,
        status: subscription.status,
        priceId: subscription.priceId,
        currentPeriodEnd: subscription.currentPeriodEnd,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        cancelAt: subscription.cancelAt,
        endedAt: subscription.endedAt,
      });
    }
    if (event.kind === 'payment-failed') record.paymentFailedAt = event.created;
    if (event.kind === 'payment-succeeded' || subscription?.status === 'active')
      record.paymentFailedAt = null;

    const wanted = subscription ? tierOf(subscription.status) : null;
    // Stripe ends a paid tier it gave, never one given by hand (complimentary).
    const moves =
      (wanted === 'paid' && (user.membershipTier !== 'paid' || user.tierSource !== 'stripe')) ||
      (wanted === 'free' && user.membershipTier === 'paid' && user.tierSource === 'stripe');
    const billing = { observedAt, record };
    if (wanted && moves) {
      await this.deps.tiers.change(
        user,
        wanted,
        { kind: 'stripe', eventId: event.id, eventType: event.type, request },
        billing,
      );
    } else {
      await this.deps.users.updateBillingIfNewer(user._id, observedAt, { billing: record });
    }
  }

  /** Every active administrator hears of a failed payment, through the mail queue. */
  private async tellOwners(member: UserDoc, event: PaymentEvent): Promise<void> {
    const owners = await this.deps.users.find({ role: 'admin', status: 'active' }, { limit: 20 });
    for (const owner of owners) {
      await this.deps.mailer.send(
        paymentFailedMail(owner.email, member, event, `${this.deps.publicUrl}/admin/dashboard`),
      );
    }
  }
}
