import type { CreateUserBody, UpdateUserBody } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { AppError } from '../../lib/app-error';
import { DuplicateKeyError } from '../../store/store';
import type { ConfirmReauth } from '../auth/reauth';
import { assertTierChangeConfirmed } from '../payments/membership-tier';
import type { SessionsService } from '../sessions/sessions.service';
import type { StoreLeases } from '../shared-state/store-lease';
import { AccountRemoval } from '../users/account-removal';
import { voidEmailChange } from '../users/email-change';
import { hashPassword } from '../users/passwords';
import { toPublicUser, type UserDoc, type UsersRepository } from '../users/users.repository';

const DUPLICATE_EMAIL = 'A user with this email already exists.';
const LAST_ADMIN =
  'This is the last active administrator. Make another user an active administrator first, so the console always has an owner.';

const ADMINS_BUSY = 'Another change to administrators is being saved right now. Please try again.';
/** The lease held while a change that could remove an active administrator is checked and written. */
const ADMINS_LEASE = 'admins';

/** Demo users share a password published in docs/console.md, so the console must never be theirs. */
const DEMO_ADMIN =
  'Demo users cannot be administrators: their password is published. Add a new user as an administrator instead.';

const BILLING_CHANGED = 'This user’s billing changed while they were being deleted. Please try again.';

const SELF_DELETE = 'You cannot delete your own account from the console. Another administrator can do it.';

const isActiveAdmin = (user: Pick<UserDoc, 'role' | 'status'>) =>
  user.role === 'admin' && user.status === 'active';

/**
 * Whether an edit can hand console rights to someone or take them from their holder, and so
 * needs the password again: making anyone an administrator (a suspended one too: one rule, no
 * dormant administrator made without it), or changing an administrator's role, status, e-mail
 * (a reset link goes to it) or password. The acting administrator's own e-mail and password
 * count: the account page asks for the current password for those, and the console must not be
 * the easier way for a stolen token. A name, a tier, or a field sent with the value it already
 * has (the edit row sends every field) is not.
 */
function movesConsoleRights(current: UserDoc, changes: Partial<UserDoc>): boolean {
  const next = { ...current, ...changes };
  if (current.role !== 'admin') return next.role === 'admin';
  return (
    next.role !== 'admin' ||
    next.status !== current.status ||
    next.email !== current.email ||
    changes.password !== undefined
  );
}

/**
 * Sets a member's tier through the payments feature's one function, which records why a member is
 * paid (the route hands it in with who asked); without it the tier is written like any field.
 */
export type ChangeTier = (user: UserDoc, tier: UserDoc['membershipTier']) => Promise<UserDoc | null>;

/** A change as the Activity log records it. */
export interface UserChange {
  before: PublicUser;
  after: PublicUser;
}

/**
 * What administrators change of users from the console: create, edit, delete, one change that
 * could remove an active administrator at a time. A change that gives console rights or takes
 * them from their holder (see `movesConsoleRights`), and deleting an administrator, first calls
 * `confirm` (auth/reauth.ts's `whenNeeded`). What the console reads is UserListService's.
 */
export class AdminUsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly leases: StoreLeases,
    private readonly removal = new AccountRemoval(users, sessions),
  ) {}

  /**
   * Creating an administrator needs the password again (`confirm`), a member does not. With
   * `changeTier`, a paid user is made free then paid through it, like an edit, so the reason
   * (complimentary) and `paidSince` are recorded the one way.
   */
  async create(body: CreateUserBody, confirm: ConfirmReauth, changeTier?: ChangeTier): Promise<PublicUser> {
    if (body.role === 'admin') await confirm();
    const { password, ...fields } = body;
    const passwordHash = await hashPassword(password);
    const byTierFunction = Boolean(changeTier) && fields.membershipTier !== 'free';
    let created: UserDoc;
    try {
      created = await this.users.create({
        ...fields,
        ...(byTierFunction ? { membershipTier: 'free' as const } : {}),
        password: passwordHash,
      });
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new AppError('CONFLICT', DUPLICATE_EMAIL);
      throw error;
    }
    if (byTierFunction && changeTier) created = (await changeTier(created, fields.membershipTier)) ?? created;
    return toPublicUser(created);
  }

  /**
   * `actor` is the administrator making the change: a new password ends every session of the
   * user it is set for, except, when administrators change their own, the session they use.
   * Changes that move console rights need the password again (`confirm`, see `movesConsoleRights`).
   */
  async update(
    id: string,
    body: UpdateUserBody,
    actor: { userId: string; sessionId: string },
    confirm: ConfirmReauth,
    changeTier?: ChangeTier,
  ): Promise<UserChange> {
    const changes: Partial<UserDoc> = {};
    // An undefined value would unset the field in the store, so only given fields are copied.
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined || key === 'password' || key === 'confirmManagedByStripe') continue;
      if (key === 'membershipTier' && changeTier) continue;
      Object.assign(changes, { [key]: value });
    }
    if (body.password) changes.password = await hashPassword(body.password);

    return this.guardAdmins(async (held) => {
      const current = await this.find(id);
      const next = { ...current, ...changes };
      if (current.demo && next.role === 'admin') throw new AppError('FORBIDDEN', DEMO_ADMIN);
      if (body.membershipTier)
        assertTierChangeConfirmed(current, body.membershipTier, body.confirmManagedByStripe);
      if (movesConsoleRights(current, changes)) await confirm();
      // A new password is a recovery: whoever asked to move the account elsewhere may be the
      // intruder it shuts out, so a pending e-mail change ends with it.
      if (body.password) Object.assign(changes, voidEmailChange(current, 'password'));
      if (isActiveAdmin(current) && !isActiveAdmin(next)) await this.keepOneAdmin();
      held.assertHeld();
      try {
        let updated = await this.users.update(id, changes);
        if (!updated) throw new AppError('NOT_FOUND', 'User not found.');
        if (changeTier && body.membershipTier)
          updated = (await changeTier(updated, body.membershipTier)) ?? updated;
        if (body.password) await this.sessions.endAll(id, id === actor.userId ? actor.sessionId : undefined);
        return { before: toPublicUser(current), after: toPublicUser(updated) };
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw new AppError('CONFLICT', DUPLICATE_EMAIL);
        throw error;
      }
    });
  }

  /**
   * Nobody deletes themselves here; deleting another administrator needs the password again. A
   * paid subscription is cancelled first, outside the lease (Stripe may take seconds), after the
   * checks that would refuse the deletion anyway; when it cannot be cancelled, nothing is deleted.
   */
  async delete(
    id: string,
    actorId: string,
    confirm: ConfirmReauth,
  ): Promise<{ user: PublicUser; subscriptionCancelled: boolean }> {
    if (id === actorId) throw new AppError('FORBIDDEN', SELF_DELETE);
    const before = await this.find(id);
    if (before.role === 'admin') await confirm();
    if (isActiveAdmin(before)) await this.keepOneAdmin();
    const subscriptionCancelled = await this.removal.endBilling(before, 'admin');
    return this.guardAdmins(async (held) => {
      const current = await this.find(id);
      if (current.role === 'admin' && before.role !== 'admin') await confirm();
      if (isActiveAdmin(current)) await this.keepOneAdmin();
      // A subscription started since the one cancelled above would go on charging.
      if (current.billing?.subscriptionId !== before.billing?.subscriptionId)
        throw new AppError('CONFLICT', BILLING_CHANGED);
      held.assertHeld();
      if (!(await this.removal.delete(current))) throw new AppError('NOT_FOUND', 'User not found.');
      return { user: toPublicUser(current), subscriptionCancelled };
    });
  }

  private async find(id: string): Promise<UserDoc> {
    const user = await this.users.findById(id);
    if (!user) throw new AppError('NOT_FOUND', 'User not found.');
    return user;
  }

  private async keepOneAdmin(): Promise<void> {
    if ((await this.users.count({ role: 'admin', status: 'active' })) <= 1)
      throw new AppError('CONFLICT', LAST_ADMIN);
  }

  /**
   * Changes that could remove an active administrator run one at a time across every server
   * process and machine (a lease in the store, see StoreLeases), so that two of them racing
   * cannot both see "another admin is left" and lock the owner out together. The lease covers
   * the reading of the user, the count of active administrators and the write.
   */
  private guardAdmins<R>(work: (held: { assertHeld(): void }) => Promise<R>): Promise<R> {
    return this.leases.run(ADMINS_LEASE, ADMINS_BUSY, work);
  }
}
