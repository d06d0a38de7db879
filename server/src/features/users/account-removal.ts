import type { UserDoc, UsersRepository } from './users.repository';

/** Added to the Activity log's entry of a deletion that cancelled a paid subscription. */
export const SUBSCRIPTION_CANCELLED = ' (their Stripe subscription was cancelled)';

/** Who asked for a deletion: the member on /account, or an administrator in User Management. */
export type RemovedBy = 'member' | 'admin';

/** Ends every session of a user: the sessions feature's (SessionsService), named here so the record stays below it. */
export interface SessionsEnder {
  endAll(userId: string): Promise<unknown>;
}

/** What else goes with an account, provided by the features that keep it (wired in account.feature.ts). */
export interface RemovalParts {
  /**
   * Runs before anything is deleted and ends what would go on without the account: a paid
   * subscription (payments feature). A throw refuses the deletion with nothing deleted. Answers
   * whether it ended something.
   */
  endBilling(user: UserDoc, by: RemovedBy): Promise<boolean>;
  /** Runs once the user record is gone: the person's records elsewhere (course progress). */
  forget(user: UserDoc): Promise<void>;
}

const NOTHING_ELSE: RemovalParts = { endBilling: async () => false, forget: async () => undefined };

/**
 * The one way an account is deleted, by its member or by an administrator, in two steps so that
 * the caller may hold a lock around the second only: ending billing may wait seconds on Stripe.
 */
export class AccountRemoval {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsEnder,
    private readonly parts: RemovalParts = NOTHING_ELSE,
  ) {}

  /** Step one: throws (and nothing is deleted) when the member's subscription cannot be cancelled. */
  endBilling(user: UserDoc, by: RemovedBy): Promise<boolean> {
    return this.parts.endBilling(user, by);
  }

  /** Step two: the record, every session, the records kept elsewhere. False when it was gone already. */
  async delete(user: UserDoc): Promise<boolean> {
    if (!(await this.users.delete(user._id))) return false;
    await this.sessions.endAll(user._id);
    await this.parts.forget(user);
    return true;
  }
}
