// What members and the console ask of payments. Seams, in order: the plans (cached), the
// member's billing (me), checkout and the portal, cancelling at account deletion, the overview.
import type { PaymentPlan } from '@common/payment-plans';
import {
  ENDED_STATUSES,
  type BillingDiscount as MemberDiscount,
  PAYING_STATUSES,
} from '@common/schemas/billing';
import {
  CHECKOUT_RETURN_PARAM,
  type checkoutBody,
  type MemberBilling,
  type PaymentsOverview,
  type portalBody,
} from '@common/schemas/payments';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { EffectivePayments } from '../../settings/payments-in-force';
import type { DocChanges } from '../../store/store';
import { BILLING_FIELDS, type BillingRecord, boughtCourseIds } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import type { PaymentEventsRepository } from './payment-events.repository';
import { ProviderError } from './payment-provider';
import { PaymentsSettings } from './payments-settings';

/** Prices change rarely; anyone may ask for them (the Upgrade button, /join), so Stripe is asked at most this often. */
const PLANS_TTL_MS = 10 * 60 * 1000;
/** After Stripe failed to answer, the empty answer is kept this long before asking again. */
const PLANS_FAILED_TTL_MS = 60 * 1000;
/** Checkout sessions remembered per member (a checkout page expires after a day at Stripe). */
const CHECKOUTS_KEPT = 10;
/** Failing members shown on the console's Dashboard. */
const FAILING_SHOWN = 5;

const NOT_AVAILABLE = 'Paid membership is not available right now. Please try again later.';

export interface PaymentsServiceDeps {
  settings: PaymentsSettings;
  events: PaymentEventsRepository;
  users: UsersRepository;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** A discount as the member sees it, only while it applies. */
function discountNow(discount: BillingRecord['discount']): MemberDiscount | null {
  if (!discount || (discount.end && discount.end.getTime() <= Date.now())) return null;
  return { ...discount, end: discount.end?.toISOString() ?? null };
}

/** What members do with their paid membership (upgrade, manage billing), and what the owner sees of it. */
export class PaymentsService {
  private plansCache = new Map<string, { plans: PaymentPlan[]; until: number }>();

  constructor(private readonly deps: PaymentsServiceDeps) {}

  /** The prices members can choose now; none when payments are not set up or Stripe cannot say. */
  async plans(settings?: EffectivePayments): Promise<{ available: boolean; plans: PaymentPlan[] }> {
    const current = settings ?? (await this.deps.settings.effective());
    if (!PaymentsSettings.isReady(current)) return { available: false, plans: [] };
    const plans = await this.readPlans(current, current.priceIds);
    return { available: plans.length > 0, plans };
  }

  private async readPlans(settings: EffectivePayments, priceIds: readonly string[]): Promise<PaymentPlan[]> {
    const key = `${settings.secretKey?.slice(-8)}:${priceIds.join(',')}`;
    const hit = this.plansCache.get(key);
    if (hit && hit.until > Date.now()) return hit.plans;
    const provider = this.deps.settings.providerFor(settings);
    if (!provider) return [];
    try {
      const plans = await provider.readPlans(priceIds);
      this.plansCache.set(key, { plans, until: Date.now() + PLANS_TTL_MS });
      return plans;
    } catch (error) {
      this.deps.log.warn({ ...(error as ProviderError).details }, 'Could not read the prices from Stripe');
      this.plansCache.set(key, { plans: [], until: Date.now() + PLANS_FAILED_TTL_MS });
      return [];
    }
  }

  async me(user: UserDoc): Promise<MemberBilling> {
    const settings = await this.deps.settings.effective();
    const billing = user.billing;
    const plan =
      billing?.priceId && settings.secretKey
        ? ((await this.readPlans(settings, [billing.priceId]))[0] ?? null)
        : null;
    return {
      tier: user.membershipTier,
      available: PaymentsSettings.isReady(settings) && user.membershipTier === 'free',
      tierSource: user.tierSource ?? null,
      paidSince: user.paidSince?.toISOString() ?? null,
      subscription:
        billing?.subscriptionId && billing.status
          ? {
              status: billing.status,
              plan,
              currentPeriodEnd: billing.currentPeriodEnd?.toISOString() ?? null,
              cancelAtPeriodEnd: Boolean(billing.cancelAtPeriodEnd),
              cancelAt: billing.cancelAt?.toISOString() ?? null,
              endedAt: billing.endedAt?.toISOString() ?? null,
              trialEnd: billing.status === 'trialing' ? (billing.trialEnd?.toISOString() ?? null) : null,
              trialNeedsCard: billing.status === 'trialing' && Boolean(billing.trialNeedsCard),
              discount: discountNow(billing.discount),
            }
          : null,
      canManageBilling: Boolean(billing?.customerId && settings.secretKey),
      boughtCourseIds: boughtCourseIds(user.purchases),
    };
  }

  /** Starts Stripe Checkout for the signed-in member; answers the address of Stripe's page. */
  async checkout(user: UserDoc, body: z.output<typeof checkoutBody>): Promise<string> {
    const settings = await this.deps.settings.effective();
    const provider = this.deps.settings.providerFor(settings);
    if (!PaymentsSettings.isReady(settings) || !provider) throw new AppError('UNAVAILABLE', NOT_AVAILABLE);
    if (user.membershipTier === 'paid') {
      const subscribed = user.billing?.status && PAYING_STATUSES.includes(user.billing.status);
      throw new AppError(
        'CONFLICT',
        subscribed
          ? 'You already pay for the paid tier. To change your plan, use Manage billing on your account page.'
          : 'You already have the paid tier.',
      );
    }
    const priceId = body.priceId ?? settings.priceIds[0]!;
    if (!settings.priceIds.includes(priceId)) throw new AppError('VALIDATION', 'That plan is not offered.');
    const back = `${this.deps.publicUrl}${body.returnPath}?${CHECKOUT_RETURN_PARAM}=`;
    try {
      // A member whose customer already has a live subscription (paid in another tab, or waiting
      // for a slow or lost webhook) would pay twice: they go to the portal instead.
      const known = user.billing?.customerId;
      if (known && (await provider.listLiveSubscriptions(known)).length > 0) {
        this.deps.log.info(
          { userId: user._id },
          'Checkout refused: a live subscription already; portal instead',
        );
        return (
          await provider.createPortal({
            customerId: known,
            returnUrl: `${this.deps.publicUrl}${body.returnPath}`,
          })
        ).url;
      }
      const { url, customerId, sessionId } = await provider.createCheckout({
        userId: user._id,
        email: user.email,
        name: user.name,
        customerId: user.billing?.customerId,
        priceId,
        successUrl: `${back}success`,
        cancelUrl: `${back}cancelled`,
        promotionCodes: settings.promotionCodes,
        // A trial is for a first subscription: a member coming back pays from the start.
        trial:
          settings.trialDays && !user.billing?.subscriptionId
            ? { days: settings.trialDays, withoutCard: settings.trialWithoutCard }
            : null,
      });
      // Recorded before the member can pay: only a checkout the site opened for them links a
      // subscription to them (payments-webhook.ts). Dotted fields: a webhook writing the rest of
      // the billing at the same moment loses nothing.
      const sessions = [...(user.billing?.checkoutSessionIds ?? []), sessionId].slice(-CHECKOUTS_KEPT);
      await this.deps.users.update(user._id, {
        [BILLING_FIELDS.customerId]: customerId,
        [BILLING_FIELDS.checkoutSessionIds]: sessions,
      } as DocChanges<UserDoc>);
      return url;
    } catch (error) {
      throw this.unavailable(error, 'Could not start a Stripe checkout');
    }
  }

  /** Opens Stripe's Customer Portal for the member's own customer. */
  async portal(user: UserDoc, body: z.output<typeof portalBody>): Promise<string> {
    const customerId = user.billing?.customerId;
    if (!customerId) throw new AppError('NOT_FOUND', 'You have no billing account yet: upgrade first.');
    const provider = this.deps.settings.providerFor(await this.deps.settings.effective());
    if (!provider)
      throw new AppError('UNAVAILABLE', 'Billing cannot be managed right now. Please try again later.');
    try {
      return (
        await provider.createPortal({ customerId, returnUrl: `${this.deps.publicUrl}${body.returnPath}` })
      ).url;
    } catch (error) {
      throw this.unavailable(error, 'Could not open the Stripe customer portal');
    }
  }

  /**
   * Before an account is deleted: its subscription, if one may still charge, is cancelled at once.
   * When that cannot be done (Stripe unreachable or refusing, or no longer set up on the site),
   * the deletion is refused with SUBSCRIPTION_NOT_CANCELLED and nothing is deleted: deleting anyway
   * would leave a person paying every month for an account that no longer exists, with no
   * "Manage billing" left to stop it, and the owner finding out from a chargeback. Refused, the
   * account stays whole and can be deleted again in a moment. Answers whether a subscription was
   * cancelled (for the Activity log). `by` words the refusal for who asked.
   */
  async cancelForDeletion(user: UserDoc, by: 'member' | 'admin'): Promise<boolean> {
    const billing = user.billing;
    const known = [billing?.subscriptionId, ...(billing?.otherSubscriptionIds ?? [])].filter(
      (id): id is string => Boolean(id),
    );
    const knownLive =
      (billing?.otherSubscriptionIds?.length ?? 0) > 0 ||
      Boolean(billing?.subscriptionId && !(billing.status && ENDED_STATUSES.includes(billing.status)));
    if (!billing?.customerId && !knownLive) return false;
    const refused = (why: string) =>
      new AppError(
        'SUBSCRIPTION_NOT_CANCELLED',
        by === 'member'
          ? `Your paid subscription could not be cancelled at Stripe (${why}), so your account was not deleted and nothing changed. Please try again in a few minutes.`
          : `${user.email} pays through Stripe, and the subscription could not be cancelled (${why}), so the user was not deleted and nothing changed. Try again in a moment, or cancel the subscription in Stripe’s dashboard and wait for its event before deleting.`,
      );
    const provider = this.deps.settings.providerFor(await this.deps.settings.effective());
    if (!provider) {
      if (knownLive) throw refused('Stripe is not set up on this site any more');
      return false;
    }
    const reason = 'The member’s account was deleted on the site.';
    let cancelled = 0;
    try {
      // Every live subscription of the member's customer, including one the site never heard of
      // (a second checkout whose event was lost), and any recorded one on another customer.
      const live = billing?.customerId ? await provider.listLiveSubscriptions(billing.customerId) : [];
      const ids = new Set(live.map((subscription) => subscription.id));
      if (knownLive) for (const id of known) ids.add(id);
      for (const id of ids) {
        const ended = await provider.cancelSubscription(id, reason);
        if (ended) cancelled += 1;
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.deps.log.warn(
        { ...error.details, userId: user._id },
        'Could not cancel the subscription of an account being deleted',
      );
      throw refused(error.retryable ? 'Stripe could not be reached' : 'Stripe refused the site’s request');
    }
    if (cancelled === 0) return false;
    this.deps.log.info(
      { userId: user._id, cancelled },
      'Subscriptions cancelled: the account is being deleted',
    );
    return true;
  }

  private unavailable(error: unknown, what: string): AppError {
    if (!(error instanceof ProviderError)) return error as AppError;
    this.deps.log.warn({ ...error.details }, what);
    return new AppError('UNAVAILABLE', error.message);
  }

  /** Whether payments are taken with a live key (a test key's payments are never revenue). */
  async mode(): Promise<'live' | 'test' | null> {
    const { secretKey } = await this.deps.settings.effective();
    return secretKey ? (secretKey.includes('_live_') ? 'live' : 'test') : null;
  }

  async overview(): Promise<PaymentsOverview> {
    const settings = await this.deps.settings.effective();
    const [paying, pastDue, failing, twice, notApplied] = await Promise.all([
      this.deps.users.count({ [BILLING_FIELDS.status]: { $in: [...PAYING_STATUSES] } }),
      this.deps.users.count({ [BILLING_FIELDS.status]: 'past_due' }),
      this.deps.users.find(
        { [BILLING_FIELDS.status]: 'past_due' },
        { sort: { updatedAt: -1, _id: -1 }, limit: FAILING_SHOWN },
      ),
      this.deps.users.find(
        { [BILLING_FIELDS.otherSubscriptionIds]: { $exists: true } },
        { sort: { updatedAt: -1, _id: -1 }, limit: 20 },
      ),
      this.deps.events.failed(),
    ]);
    return {
      ready: PaymentsSettings.isReady(settings),
      mode: settings.secretKey ? (settings.secretKey.includes('_live_') ? 'live' : 'test') : null,
      paying,
      pastDue,
      failing: failing.map((user) => ({
        _id: user._id,
        name: user.name,
        email: user.email,
        paymentFailedAt: user.billing?.paymentFailedAt?.toISOString() ?? null,
        currentPeriodEnd: user.billing?.currentPeriodEnd?.toISOString() ?? null,
      })),
      subscribedTwice: twice.map((user) => ({
        _id: user._id,
        name: user.name,
        email: user.email,
        customerId: user.billing?.customerId ?? null,
        subscriptions: 1 + (user.billing?.otherSubscriptionIds?.length ?? 0),
      })),
      notApplied: {
        count: notApplied.length,
        reason: notApplied[0]?.reason ?? null,
        since: notApplied.at(-1)?.claimedAt.toISOString() ?? null,
      },
    };
  }
}
