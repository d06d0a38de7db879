import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import type { MembershipTiers } from '../payments/membership-tier';
import type { AccountRemoval } from '../users/account-removal';
import { adminUsersRoutes } from './admin-users.routes';
import { AdminUsersService } from './admin-users.service';
import { UserListService } from './user-list.service';

/**
 * The console's User Management and overview (`/api/admin/users`, `/api/admin/stats`). A tier
 * is changed through the payments feature's one function; a user is deleted the account's one way.
 */
export async function createAdminUsersFeature(
  ctx: AppContext,
  needs: { removal: AccountRemoval; tiers: MembershipTiers },
): Promise<Feature> {
  const users = new AdminUsersService(ctx.users, ctx.sessions, ctx.leases, needs.removal);
  const list = new UserListService(ctx.users);
  return { name: 'admin-users', adminRoutes: [{ plugin: adminUsersRoutes(users, list, needs.tiers, ctx) }] };
}
