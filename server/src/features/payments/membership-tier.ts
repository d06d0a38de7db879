import { PAYING_STATUSES, type TierSource } from '@common/schemas/billing';
import type { Tier } from '@common/schemas/user';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { ActivityLog } from '../activity/activity.service';
import type { BillingRecord } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';

/**
 * Who moves a tier: a Stripe event (named by its id and type), or an administrator in the
 * console, who may have confirmed the warning that Stripe manages the member's tier.
 */
export type TierChangeSource =
  | { kind: 'stripe'; eventId: string; eventType: string; request: FastifyRequest }
  | { kind: 'admin'; request: FastifyRequest; confirmedManagedByStripe?: boolean };

/** A live subscription decides this member's tier: Stripe's next event would set it again. */
export function managedByStripe(user: Pick<UserDoc, 'billing'>): boolean {
  return Boolean(user.billing?.status && PAYING_STATUSES.includes(user.billing.status));
}

/**
 * An administrator changes the tier of a member Stripe bills only after being warned (the
 * console's dialog sends `confirmManagedByStripe`): making them free does not stop the charges,
 * and Stripe's next event would undo it. Checked before anything of the edit is written.
 */
export function assertTierChangeConfirmed(user: UserDoc, tier: Tier, confirmed: boolean | undefined): void {
  if (tier === user.membershipTier || !managedByStripe(user) || confirmed) return;
  throw new AppError(
    'TIER_MANAGED_BY_STRIPE',
    tier === 'free'
      ? `${user.email} pays through Stripe: making them free here does not cancel their subscription (Stripe goes on charging them) and its next event makes them paid again. Cancel it in Stripe’s dashboard, or confirm the change (confirmManagedByStripe).`
      : `${user.email}’s tier is managed by Stripe: making them paid by hand marks it as complimentary. Confirm the change (confirmManagedByStripe).`,
  );
}

/** How Stripe's changes appear in the Activity log: no person made them. */
export const STRIPE_ACTOR = { id: null, email: 'Stripe' } as const;

const sourceOf = (source: TierChangeSource, tier: Tier): TierSource =>
  source.kind === 'stripe' ? 'stripe' : tier === 'paid' ? 'complimentary' : 'admin';

/**
 * The one way a member's tier changes: Stripe's events, the console's User Management, a paid
 * tier given by hand. Each change records why (`tierSource`), since when the member is paid
 * (`paidSince`), and an Activity entry naming its source, so the owner can tell why anyone is paid.
 */
export class MembershipTiers {
  private readonly paidListeners: Array<(user: UserDoc) => void> = [];

  constructor(
    private readonly users: UsersRepository,
    private readonly activity: Pick<ActivityLog, 'record'>,
  ) {}

  /** `listener` runs when a free member becomes paid (the paid welcome mail); not awaited, must not throw. */
  whenPaid(listener: (user: UserDoc) => void): void {
    this.paidListeners.push(listener);
  }

  /**
   * Moves `user` to `tier`. With `billing` (a Stripe event), the billing read from Stripe is
   * written in the same compare-and-set: when a later reading is stored already, nothing is
   * written and the answer is null (that later reading decided the tier).
   */
  async change(
    user: UserDoc,
    tier: Tier,
    source: TierChangeSource,
    billing?: { observedAt: Date; record: BillingRecord },
  ): Promise<UserDoc | null> {
    if (source.kind === 'admin') assertTierChangeConfirmed(user, tier, source.confirmedManagedByStripe);
    const tierSource = sourceOf(source, tier);
    // An edit that leaves the tier as it is (the console's row sends every field) says nothing of why.
    if (source.kind === 'admin' && user.membershipTier === tier) return user;
    if (user.membershipTier === tier && user.tierSource === tierSource && !billing) return user;
    const becomesPaid = tier === 'paid' && user.membershipTier !== 'paid';
    const paidSince =
      tier === 'paid' ? (becomesPaid ? new Date() : (user.paidSince ?? new Date())) : undefined;
    const changes = { membershipTier: tier, tierSource, paidSince };
    const updated = billing
      ? await this.users.updateBillingIfNewer(user._id, billing.observedAt, {
          ...changes,
          billing: billing.record,
        })
      : await this.users.update(user._id, changes);
    if (!updated) {
      if (billing) return null;
      throw new AppError('NOT_FOUND', 'User not found.');
    }
    if (user.membershipTier === tier && user.tierSource === tierSource) return updated;
    if (becomesPaid) for (const listener of this.paidListeners) listener(updated);
    await this.activity.record(source.request, {
      kind: 'membership.tier',
      summary: summaryOf(updated, user, source),
      before: facts(user),
      after: facts(updated),
      ...(source.kind === 'stripe' ? { actor: STRIPE_ACTOR } : {}),
    });
    return updated;
  }
}

function facts(user: UserDoc) {
  return {
    membershipTier: user.membershipTier,
    tierSource: user.tierSource ?? null,
    paidSince: user.paidSince?.toISOString() ?? null,
  };
}

function summaryOf(after: UserDoc, before: UserDoc, source: TierChangeSource): string {
  const who = after.email;
  if (source.kind === 'stripe') {
    const why = `Stripe ${source.eventType} (${source.eventId})`;
    if (before.membershipTier === after.membershipTier)
      return `${who} is now paid through Stripe (was ${before.tierSource ?? 'paid'}): ${why}`;
    return `${who} is now ${after.membershipTier}: ${why}`;
  }
  return after.membershipTier === 'paid'
    ? `${who} made paid by hand (complimentary)`
    : `${who} made free by an administrator`;
}
