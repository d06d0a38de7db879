// Stripe's events applied to members. Seams, in order: a subscription's status as a tier
// (tierOf), then PaymentsWebhook: claiming an event once, reading what it is about from Stripe,
// and applying it to the member it belongs to (with the payment mails).
import { ENDED_STATUSES, PAYING_STATUSES, type SubscriptionStatus } from '@common/schemas/billing';
import type { WebhookOutcome } from '@common/schemas/payments';
import type { Tier } from '@common/schemas/user';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import type { DocChanges } from '../../store/store';
import { BILLING_FIELDS, type BillingRecord } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { CoursePurchases } from './course-purchases';
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
  purchases: CoursePurchases;
  events: PaymentEventsRepository;
  users: UsersRepository;
  tiers: MembershipTiers;
  mailer: Mailer;
  /** The site's name (the console's Site section): the mails come from it and are signed with it. */
  siteName: () => Promise<string>;
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
      const outcome = await this.handle(event, provider, settings.priceIds, request);
      await this.deps.events.finish(event.id);
      return outcome;
    } catch (error) {
      if (error instanceof ProviderError) await this.deps.events.fail(event.id, error.message);
      else await this.deps.events.release(event.id);
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
    sitePrices: readonly string[],
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    if (event.kind === 'other') return { ignored: 'not an event the site acts on' };
    if (event.kind === 'purchase-completed' || event.kind === 'purchase-refunded')
      return this.deps.purchases.apply(event, provider, request);
    // Taken before the read is sent: a reading answered later but asked earlier is the older one.
    const observedAt = new Date();
    const subscription = event.subscriptionId ? await provider.readSubscription(event.subscriptionId) : null;
    const user = await this.memberOf(event, subscription);
    if (!user) {
      this.deps.log.warn(
        { eventId: event.id, type: event.type },
        'Stripe event about no member of this site',
      );
      return { ignored: 'no member of this site' };
    }
    const ours = (state: SubscriptionState) => state.priceIds.some((price) => sitePrices.includes(price));
    const recorded = subscription !== null && user.billing?.subscriptionId === subscription.id;
    // Another product of the owner's bought by the member's customer is not membership. The
    // subscription the site records stays under watch: switched to a foreign price, it ends the tier.
    if (subscription && !recorded && !ours(subscription)) {
      this.deps.log.warn(
        { eventId: event.id, type: event.type, userId: user._id, priceIds: subscription.priceIds },
        'Stripe subscription to a price that is not the site’s: ignored',
      );
      return { ignored: 'not a subscription to one of the site’s prices' };
    }
    // The recorded subscription ended while a second one of the member's still runs: that one is
    // now their membership (the member is not made free while they still pay).
    let state = subscription;
    let promoted = false;
    const others = user.billing?.otherSubscriptionIds ?? [];
    if (state && recorded && !isLive(state.status) && others.length > 0) {
      for (const id of others) {
        const other = await provider.readSubscription(id);
        if (other && isLive(other.status) && ours(other) && other.customerId === state.customerId) {
          state = other;
          promoted = true;
          break;
        }
      }
    }
    await this.sync(user, event, state, { ours: state ? ours(state) : true, promoted, observedAt }, request);
    // Paid again by the time the event arrives (the card updated, Stripe's retry went through): no alarm.
    if (event.kind === 'payment-failed' && state?.status !== 'active') await this.tellOwners(user, event);
    return { handled: true };
  }

  /**
   * The member an event is about. A finished checkout counts only if the site opened it for the
   * member it names (its session recorded on them): the `client_reference_id` alone can be set by
   * anyone. Everything else is about a subscription, whose customer must be the one the site made
   * for the member and recorded on them; the subscription's metadata is never enough.
   */
  private async memberOf(
    event: PaymentEvent,
    subscription: SubscriptionState | null,
  ): Promise<UserDoc | null> {
    const customerId = subscription?.customerId || event.customerId;
    if (event.kind === 'checkout-completed') {
      const user = event.userId ? await this.deps.users.findById(event.userId) : null;
      const opened =
        event.checkoutSessionId && user?.billing?.checkoutSessionIds?.includes(event.checkoutSessionId);
      if (!user || !opened || (customerId && user.billing?.customerId !== customerId)) return null;
      return user;
    }
    if (!customerId) return null;
    const [user] = await this.deps.users.find({ [BILLING_FIELDS.customerId]: customerId }, { limit: 1 });
    return user ?? null;
  }

  private async sync(
    user: UserDoc,
    event: PaymentEvent,
    subscription: SubscriptionState | null,
    { ours, promoted, observedAt }: { ours: boolean; promoted: boolean; observedAt: Date },
    request: FastifyRequest,
  ): Promise<void> {
    const current = user.billing ?? {};
    // Never re-linked to another customer's subscription.
    if (subscription && current.customerId && subscription.customerId !== current.customerId) return;
    const others = current.otherSubscriptionIds ?? [];
    if (
      subscription &&
      !promoted &&
      current.subscriptionId &&
      current.subscriptionId !== subscription.id &&
      isLive(current.status)
    ) {
      // Another subscription of the member's customer while the recorded one is live: a second
      // checkout that slipped through (two tabs, a lost event), or a late event about an ended
      // one. The recorded one stays; a live second one is recorded for the owner to see (the
      // console's Dashboard) and is cancelled with the account.
      const rest = others.filter((id) => id !== subscription.id);
      const second = !ENDED_STATUSES.includes(subscription.status);
      if (second)
        this.deps.log.warn(
          { userId: user._id, subscriptionId: subscription.id, eventId: event.id },
          'A member has a second Stripe subscription: they may be charged twice (see the console’s Dashboard)',
        );
      const next = second ? [...rest, subscription.id] : rest;
      if (next.length !== others.length || next.some((id, index) => id !== others[index]))
        await this.deps.users.update(user._id, {
          [BILLING_FIELDS.otherSubscriptionIds]: next.length > 0 ? next : undefined,
        } as DocChanges<UserDoc>);
      return;
    }
    const remaining = subscription ? others.filter((id) => id !== subscription.id) : others;
    const record: BillingRecord = {
      ...current,
      customerId: subscription?.customerId || current.customerId || event.customerId,
      observedAt,
      otherSubscriptionIds: remaining,
    };
    if (remaining.length === 0) delete record.otherSubscriptionIds;
    if (subscription) {
      Object.assign(record, {
        subscriptionId: subscription.id,
        status: subscription.status,
        priceId: subscription.priceId,
        currentPeriodEnd: subscription.currentPeriodEnd,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        cancelAt: subscription.cancelAt,
        endedAt: subscription.endedAt,
        trialEnd: subscription.trialEnd,
        trialNeedsCard: subscription.trialNeedsCard,
        discount: subscription.discount,
      });
    }
    if (event.kind === 'payment-failed') record.paymentFailedAt = event.created;
    if (event.kind === 'payment-succeeded' || subscription?.status === 'active')
      record.paymentFailedAt = null;

    // Only the site's own prices make or keep a member paid.
    const wanted = subscription ? (ours ? tierOf(subscription.status) : 'free') : null;
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
    const siteName = await this.deps.siteName();
    for (const owner of owners) {
      await this.deps.mailer.send(
        paymentFailedMail(owner.email, member, event, `${this.deps.publicUrl}/admin/dashboard`, siteName),
      );
    }
  }
}
