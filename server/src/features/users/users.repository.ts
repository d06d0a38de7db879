import type { EmailChangeCancelReason } from '@common/schemas/account';
import type { TierSource } from '@common/schemas/billing';
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
import { BILLING_FIELDS, type BillingRecord, toPublicBilling } from './billing-record';

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
  /** When the member last became paid, and why their tier is what it is. */
  paidSince?: Date;
  tierSource?: TierSource;
}

/** The only code that reads or writes users in the store. */
export class UsersRepository {
  private readonly users: Collection<UserDoc>;
  private readonly createdListeners: Array<(user: UserDoc) => void> = [];

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

  /**
   * Makes one account (a sign-up, the console's Add user), then tells the listeners (the
   * welcome mail); a bulk insert (seed, import) tells no one.
   */
  async create(user: NewDoc<UserDoc>): Promise<UserDoc> {
    const made = await this.users.insertOne(user);
    for (const listener of this.createdListeners) listener(made);
    return made;
  }

  /** `listener` runs after each account `create` makes; it must not throw (it is not awaited). */
  whenCreated(listener: (user: UserDoc) => void): void {
    this.createdListeners.push(listener);
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
    return this.users.updateById(id, changes);
  }

  /** Consumes a reset token: succeeds for exactly one caller even when two race. */
  updateIfResetTokenMatches(id: string, hash: string, changes: DocChanges<UserDoc>): Promise<UserDoc | null> {
    return this.users.updateOne({ _id: id, resetTokenHash: hash }, changes);
  }

  delete(id: string): Promise<boolean> {
    return this.users.deleteById(id);
  }

  /**
   * Writes billing read from the payment provider at `observedAt`, unless a later reading is
   * stored already (events come out of order and in parallel): null then.
   */
  updateBillingIfNewer(id: string, observedAt: Date, changes: DocChanges<UserDoc>): Promise<UserDoc | null> {
    return this.users.updateOne(
      {
        _id: id,
        $or: [{ 'billing.observedAt': { $exists: false } }, { 'billing.observedAt': { $lt: observedAt } }],
      },
      changes,
    );
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
  };
}
