import type { AdminStats, UserListQuery } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import type { Filter, SortSpec } from '../../store/store';
import { billingFilter } from '../payments/billing-filter';
import { toPublicUser, type UserDoc, type UsersRepository } from '../users/users.repository';

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

/** What the console reads of its users: the list (a page, or every match for the CSV) and the overview's figures. */
export class UserListService {
  constructor(private readonly users: UsersRepository) {}

  async list(query: UserListQuery): Promise<UserPage> {
    const filter = billingFilter(searchFilter(query.search), query.billing);
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
    return this.users.findInBatches(billingFilter(searchFilter(query.search), query.billing), {
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
}
