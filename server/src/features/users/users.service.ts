import type { AdminStats, CreateUserBody, UpdateUserBody, UserListQuery } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { AppError } from '../../lib/app-error';
import { DuplicateKeyError, type Filter, type SortSpec } from '../../store/store';
import { hashPassword } from '../auth/passwords';
import type { SessionsService } from '../sessions/sessions.service';
import type { StoreLeases } from '../shared-state/store-lease';
import { toPublicUser, type UserDoc, type UsersRepository } from './users.repository';

const DUPLICATE_EMAIL = 'A user with this email already exists.';
const LAST_ADMIN =
  'This is the last active administrator. Make another user an active administrator first, so the console always has an owner.';

export interface UserPage {
  data: PublicUser[];
  totalPages: number;
  currentPage: number;
  total: number;
  /** False when a search matches more than `total`: counting stopped there. */
  totalExact: boolean;
}

/**
 * A search's matches are counted up to this many (or to the end of the asked page, if further):
 * past it the list says "more than", so that a search matching most members costs a page, not a
 * count of a million. The whole list's total is always exact (the store keeps it).
 */
export const SEARCH_COUNT_LIMIT = 1000;

/** Name or e-mail containing the typed text anywhere, in any letter case, taken literally. */
export function searchFilter(search: string): Filter {
  if (!search) return {};
  return { $or: [{ name: { $contains: search } }, { email: { $contains: search } }] };
}

/** `_id` breaks ties, so that pages never overlap or skip users who share a value. */
export function sortSpec(sortBy: string, sortOrder: 'asc' | 'desc'): SortSpec {
  const direction = sortOrder === 'asc' ? 1 : -1;
  return { [sortBy]: direction, _id: direction };
}

const ADMINS_BUSY = 'Another change to administrators is being saved right now. Please try again.';
/** The lease held while a change that could remove an active administrator is checked and written. */
const ADMINS_LEASE = 'admins';

const SELF_DELETE = 'You cannot delete your own account from the console. Another administrator can do it.';

const isActiveAdmin = (user: Pick<UserDoc, 'role' | 'status'>) =>
  user.role === 'admin' && user.status === 'active';

/**
 * Called before an administrator is deleted, demoted or suspended: throws unless the acting
 * administrator confirmed their password recently (see auth/reauth.ts).
 */
export type ConfirmReauth = () => Promise<void>;

/** A change as the Activity log records it. */
export interface UserChange {
  before: PublicUser;
  after: PublicUser;
}

/** What administrators do to users from the console. */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly leases: StoreLeases,
  ) {}

  async list(query: UserListQuery): Promise<UserPage> {
    const filter = searchFilter(query.search);
    const skip = (query.page - 1) * query.pageSize;
    const limit = query.search ? Math.max(SEARCH_COUNT_LIMIT, skip + query.pageSize) : undefined;
    const [counted, docs] = await Promise.all([
      // One more than the limit: "exactly the limit" and "more" are told apart.
      this.users.count(filter, limit === undefined ? {} : { limit: limit + 1 }),
      this.users.find(filter, { sort: sortSpec(query.sortBy, query.sortOrder), skip, limit: query.pageSize }),
    ]);
    const totalExact = limit === undefined || counted <= limit;
    const total = totalExact ? counted : limit;
    return {
      data: docs.map(toPublicUser),
      totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
      currentPage: query.page,
      total,
      totalExact,
    };
  }

  /** Every user matching the search, in the asked order, a batch at a time (for the CSV export). */
  listAll(query: Omit<UserListQuery, 'page' | 'pageSize'>): AsyncIterable<UserDoc[]> {
    return this.users.findInBatches(searchFilter(query.search), {
      sort: sortSpec(query.sortBy, query.sortOrder),
    });
  }

  /**
   * The overview's figures. Paid and free count members only: the few administrators (read by
   * their role's index) are taken off the tier counts the store keeps. New members are counted
   * from the sign-up date's index, to the minute, so the same count serves until the next write.
   */
  async stats(): Promise<AdminStats> {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const since = (days: number) => new Date(minute - days * 24 * 60 * 60 * 1000);
    const [totalUsers, paid, free, admins, joined7, joined30] = await Promise.all([
      this.users.count(),
      this.users.count({ membershipTier: 'paid' }),
      this.users.count({ membershipTier: 'free' }),
      this.users.find({ role: 'admin' }),
      this.users.count({ createdAt: { $gte: since(7) } }),
      this.users.count({ createdAt: { $gte: since(30) } }),
    ]);
    const adminsWhere = (test: (admin: (typeof admins)[number]) => boolean) => admins.filter(test).length;
    return {
      totalUsers,
      paidMembers: paid - adminsWhere((a) => a.membershipTier === 'paid'),
      freeMembers: free - adminsWhere((a) => a.membershipTier === 'free'),
      administrators: admins.length,
      newMembers7d: joined7 - adminsWhere((a) => a.createdAt >= since(7)),
      newMembers30d: joined30 - adminsWhere((a) => a.createdAt >= since(30)),
    };
  }

  async create(body: CreateUserBody): Promise<PublicUser> {
    const { password, ...fields } = body;
    const passwordHash = await hashPassword(password);
    try {
      return toPublicUser(await this.users.create({ ...fields, password: passwordHash }));
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new AppError('CONFLICT', DUPLICATE_EMAIL);
      throw error;
    }
  }

  /**
   * `actor` is the administrator making the change: a new password ends every session of the
   * user it is set for, except, when administrators change their own, the session they use.
   * Demoting or suspending an administrator needs the password again (`confirm`).
   */
  async update(
    id: string,
    body: UpdateUserBody,
    actor: { userId: string; sessionId: string },
    confirm: ConfirmReauth,
  ): Promise<UserChange> {
    const changes: Partial<UserDoc> = {};
    // An undefined value would unset the field in the store, so only given fields are copied.
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined && key !== 'password') Object.assign(changes, { [key]: value });
    }
    if (body.password) changes.password = await hashPassword(body.password);

    return this.guardAdmins(async (held) => {
      const current = await this.find(id);
      const next = { ...current, ...changes };
      if (current.role === 'admin' && (next.role !== 'admin' || next.status !== current.status))
        await confirm();
      if (isActiveAdmin(current) && !isActiveAdmin(next)) await this.keepOneAdmin();
      held.assertHeld();
      try {
        const updated = await this.users.update(id, changes);
        if (!updated) throw new AppError('NOT_FOUND', 'User not found.');
        if (body.password) await this.sessions.endAll(id, id === actor.userId ? actor.sessionId : undefined);
        return { before: toPublicUser(current), after: toPublicUser(updated) };
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw new AppError('CONFLICT', DUPLICATE_EMAIL);
        throw error;
      }
    });
  }

  /** Nobody deletes themselves here; deleting another administrator needs the password again. */
  async delete(id: string, actorId: string, confirm: ConfirmReauth): Promise<PublicUser> {
    if (id === actorId) throw new AppError('FORBIDDEN', SELF_DELETE);
    return this.guardAdmins(async (held) => {
      const current = await this.find(id);
      if (current.role === 'admin') await confirm();
      if (isActiveAdmin(current)) await this.keepOneAdmin();
      held.assertHeld();
      if (!(await this.users.delete(id))) throw new AppError('NOT_FOUND', 'User not found.');
      await this.sessions.endAll(id);
      return toPublicUser(current);
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
