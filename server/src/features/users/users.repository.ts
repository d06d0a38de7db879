import type { EmailChangeCancelReason } from '@common/schemas/account';
import type { TierSource } from '@common/schemas/billing';
import type { SignupSource } from '@common/schemas/figures';
import type { PublicUser, Role, Tier, UserStatus } from '@common/schemas/user';
import type {
  BatchOptions,
  Collection,
  CountOptions,
  DocChanges,
  Filter,
  FindOptions,
  NewDoc,
  Store,
  StoredDoc,
} from '../../store/store';
import {
  BILLING_FIELDS,
  type BillingRecord,
  type CoursePurchase,
  toPublicBilling,
  toPublicPurchase,
} from './billing-record';

export interface UserDoc extends StoredDoc {
  name: string;
  email: string;
  /** argon2id hash; never leaves the server. */
  password: string;
  role: Role;
  membershipTier: Tier;
  status: UserStatus;
  resetTokenHash?: string;
  resetTokenExpiresAt?: Date;
  /** Made by `npm run seed` (shared, published password); never an administrator. */
  demo?: true;
  /** A change of e-mail the member asked for, made when the link mailed to it is opened. */
  emailChangeTo?: string;
  /** sha256 of that link's token: the token itself is never stored. */
  emailChangeTokenHash?: string;
  emailChangeExpiresAt?: Date;
  /** A pending change that the owner's recovery cancelled (see email-change.ts). */
  emailChangeCancelledTo?: string;
  emailChangeCancelledBecause?: EmailChangeCancelReason;
  emailChangeCancelledAt?: Date;
  /** Written only by the payments feature (payments/membership-tier.ts and its webhook). */
  billing?: BillingRecord;
  /** Courses bought on their own; written only by the payments feature (payments/course-purchases.ts). */
  purchases?: CoursePurchase[];
  /** When the member last became paid, and why their tier is what it is. */
  paidSince?: Date;
  tierSource?: TierSource;
  /** Where the member came from when they signed up (the figures' sources). */
  signupSource?: SignupSource;
}

/**
 * Told of a member's record as it was and as it is after a sign-up, a tier or billing change, or
 * a deletion (the owner's figures, `features/figures/`). Called after the write succeeded; a
 * watcher never fails it (it reports its own errors). `null` before: created; after: deleted.
 */
export interface UserChangeWatcher {
  changed(before: UserDoc | null, after: UserDoc | null): Promise<void>;
}

/** The changes a watcher hears of: the rest (names, passwords, links) changes no figure. */
const WATCHED_FIELDS = ['membershipTier', 'billing', 'tierSource', 'role'];

/** The only code that reads or writes users in the store. */
export class UsersRepository {
  private readonly users: Collection<UserDoc>;
  private readonly watchers: UserChangeWatcher[] = [];

  constructor(store: Store) {
    this.users = store.collection<UserDoc>('users');
  }

  /**
   * One index per sortable column of the console's list (each page read in index order, a far
   * page from the nearest anchor: `paged`), a substring index on name and e-mail for its search,
   * and kept counts per tier and status.
   */
  async init(): Promise<void> {
    await this.users.ensureIndex({ field: 'email', unique: true, search: true, paged: true });
    await this.users.ensureIndex({ field: 'name', search: true, paged: true });
    await this.users.ensureIndex({ field: 'createdAt', paged: true });
    await this.users.ensureIndex({ field: 'role', paged: true });
    await this.users.ensureIndex({ field: 'membershipTier', counted: true, paged: true });
    await this.users.ensureIndex({ field: 'status', counted: true, paged: true });
    // Fields few members have (a pending link, billing once they paid): sparse, so adding members
    // (a seed, an import) writes nothing for them; the three billing indexes had made a bulk
    // insert about a fifth slower (docs/performance.md).
    await this.users.ensureIndex({ field: 'resetTokenHash', sparse: true });
    await this.users.ensureIndex({ field: 'emailChangeTokenHash', sparse: true });
    await this.users.ensureIndex({ field: BILLING_FIELDS.customerId, sparse: true });
    await this.users.ensureIndex({ field: BILLING_FIELDS.subscriptionId, sparse: true });
    await this.users.ensureIndex({ field: BILLING_FIELDS.status, counted: true, sparse: true });
  }

  /** Adds a watcher of members' sign-ups, tiers, billing and deletions (a bulk insert is not told). */
  watch(watcher: UserChangeWatcher): void {
    this.watchers.push(watcher);
  }

  async create(user: NewDoc<UserDoc>): Promise<UserDoc> {
    const created = await this.users.insertOne(user);
    await this.tell(null, created);
    return created;
  }

  insertMany(users: Array<NewDoc<UserDoc> & Partial<StoredDoc>>): Promise<number> {
    return this.users.insertMany(users);
  }

  findById(id: string): Promise<UserDoc | null> {
    return this.users.findById(id);
  }

  /** `email` must already be normalised (trimmed, lower-cased) by the request schema. */
  findByEmail(email: string): Promise<UserDoc | null> {
    return this.users.findOne({ email });
  }

  findByResetTokenHash(hash: string, now: Date): Promise<UserDoc | null> {
    return this.users.findOne({ resetTokenHash: hash, resetTokenExpiresAt: { $gt: now } });
  }

  findByEmailChangeTokenHash(hash: string, now: Date): Promise<UserDoc | null> {
    return this.users.findOne({ emailChangeTokenHash: hash, emailChangeExpiresAt: { $gt: now } });
  }

  /** Consumes an e-mail confirmation token: succeeds for exactly one caller even when two race. */
  updateIfEmailChangeMatches(
    id: string,
    hash: string,
    changes: DocChanges<UserDoc>,
  ): Promise<UserDoc | null> {
    return this.users.updateOne({ _id: id, emailChangeTokenHash: hash }, changes);
  }

  find(filter: Filter, options?: FindOptions): Promise<UserDoc[]> {
    return this.users.find(filter, options);
  }

  findInBatches(filter: Filter, options?: BatchOptions): AsyncIterable<UserDoc[]> {
    return this.users.findInBatches(filter, options);
  }

  count(filter: Filter = {}, options?: CountOptions): Promise<number> {
    return this.users.count(filter, options);
  }

  update(id: string, changes: DocChanges<UserDoc>): Promise<UserDoc | null> {
    return this.watched(id, changes, () => this.users.updateById(id, changes));
  }

  /** Consumes a reset token: succeeds for exactly one caller even when two race. */
  updateIfResetTokenMatches(id: string, hash: string, changes: DocChanges<UserDoc>): Promise<UserDoc | null> {
    return this.users.updateOne({ _id: id, resetTokenHash: hash }, changes);
  }

  async delete(id: string): Promise<boolean> {
    const before = this.watchers.length > 0 ? await this.users.findById(id) : null;
    const deleted = await this.users.deleteById(id);
    if (deleted && before) await this.tell(before, null);
    return deleted;
  }

  /**
   * Writes billing read from the payment provider at `observedAt`, unless a later reading is
   * stored already (events come out of order and in parallel): null then.
   */
  updateBillingIfNewer(id: string, observedAt: Date, changes: DocChanges<UserDoc>): Promise<UserDoc | null> {
    return this.watched(id, changes, () =>
      this.users.updateOne(
        {
          _id: id,
          $or: [{ 'billing.observedAt': { $exists: false } }, { 'billing.observedAt': { $lt: observedAt } }],
        },
        changes,
      ),
    );
  }

  /** Runs `write`, telling the watchers when it changed a watched field (read before, for them). */
  private async watched(
    id: string,
    changes: DocChanges<UserDoc>,
    write: () => Promise<UserDoc | null>,
  ): Promise<UserDoc | null> {
    const told = this.watchers.length > 0 && Object.keys(changes).some((key) => WATCHED_FIELDS.includes(key));
    const before = told ? await this.users.findById(id) : null;
    const after = await write();
    if (after && before) await this.tell(before, after);
    return after;
  }

  private async tell(before: UserDoc | null, after: UserDoc | null): Promise<void> {
    for (const watcher of this.watchers) await watcher.changed(before, after);
  }
}

/** Whitelists what may leave the server. */
export function toPublicUser(user: UserDoc): PublicUser {
  return {
    _id: user._id,
    name: user.name,
    email: user.email,
    role: user.role,
    membershipTier: user.membershipTier,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    ...(user.billing ? { billing: toPublicBilling(user.billing) } : {}),
    ...(user.paidSince ? { paidSince: user.paidSince.toISOString() } : {}),
    ...(user.tierSource ? { tierSource: user.tierSource } : {}),
    ...(user.purchases?.length ? { purchases: user.purchases.map(toPublicPurchase) } : {}),
  };
}
