import { Readable } from 'node:stream';
import {
  type AdminStatsResponse,
  createUserBody,
  type DeleteUserResponse,
  type UserListResponse,
  type UserResponse,
  type UsersCsvResponse,
  updateUserBody,
  userExportQuery,
  userIdParam,
  userListQuery,
} from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import type { ActivityInput } from '../activity/activity.service';
import type { MembershipTiers } from '../payments/membership-tier';
import { SUBSCRIPTION_CANCELLED } from '../users/account-removal';
import type { AdminUsersService, UserChange } from './admin-users.service';
import type { UserListService } from './user-list.service';
import { usersCsv } from './users-csv';

/**
 * The console's user management and overview. Registered inside the /api/admin scope, whose
 * one onRequest hook has already checked for a signed-in, active administrator.
 */
export function adminUsersRoutes(
  users: AdminUsersService,
  list: UserListService,
  tiers: Pick<MembershipTiers, 'change'>,
  ctx: Pick<AppContext, 'activity' | 'reauth'>,
) {
  return async (app: FastifyInstance) => {
    app.get<{ Reply: UserListResponse }>('/users', async (request) => {
      const page = await list.list(parseInput(userListQuery, request.query));
      return { success: true, ...page };
    });

    app.get<{ Reply: UsersCsvResponse }>('/users/export.csv', async (request, reply) => {
      const query = parseInput(userExportQuery, request.query);
      const matches = list.listAll(query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="users-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(usersCsv(matches)));
    });

    app.post<{ Reply: UserResponse }>('/users', async (request, reply) => {
      const user = await users.create(
        parseInput(createUserBody, request.body),
        ctx.reauth.whenNeeded(request),
        (created, tier) => tiers.change(created, tier, { kind: 'admin', request }),
      );
      await ctx.activity.record(request, {
        kind: 'user.created',
        summary: `Created ${user.email} (${user.role}, ${user.membershipTier}, ${user.status})`,
        after: user,
      });
      return reply.code(201).send({ success: true, data: user });
    });

    app.put<{ Reply: UserResponse }>('/users/:id', async (request) => {
      const { id } = parseInput(userIdParam, request.params);
      const body = parseInput(updateUserBody, request.body);
      const change = await users.update(
        id,
        body,
        { userId: request.user!._id, sessionId: request.sessionId! },
        ctx.reauth.whenNeeded(request),
        (user, tier) =>
          tiers.change(user, tier, {
            kind: 'admin',
            request,
            confirmedManagedByStripe: body.confirmManagedByStripe,
          }),
      );
      await ctx.activity.record(request, {
        ...describeUpdate(change, Boolean(body.password)),
        before: change.before,
        after: change.after,
      });
      return { success: true, data: change.after };
    });

    app.delete<{ Reply: DeleteUserResponse }>('/users/:id', async (request) => {
      const { id } = parseInput(userIdParam, request.params);
      const { user, subscriptionCancelled } = await users.delete(
        id,
        request.user!._id,
        ctx.reauth.whenNeeded(request),
      );
      await ctx.activity.record(request, {
        kind: 'user.deleted',
        summary: `Deleted ${user.email}${user.role === 'admin' ? ' (an administrator)' : ''}${subscriptionCancelled ? SUBSCRIPTION_CANCELLED : ''}`,
        before: user,
      });
      // After the entry above, so that it goes with the rest of the person's entries.
      await ctx.activity.forget(user);
      return { success: true, message: 'User deleted.' };
    });

    app.get<{ Reply: AdminStatsResponse }>('/stats', async () => ({
      success: true,
      data: await list.stats(),
    }));
  };
}

const FIELD_WORDS: Partial<Record<keyof PublicUser, string>> = {
  name: 'name',
  email: 'e-mail',
  membershipTier: 'tier',
  status: 'status',
  role: 'role',
};

/** The kind and sentence of an edit: a suspension or a role change is named as such. */
function describeUpdate(
  { before, after }: UserChange,
  passwordSet: boolean,
): Pick<ActivityInput, 'kind' | 'summary'> {
  if (before.role !== after.role) {
    const verb = after.role === 'admin' ? 'Promoted' : 'Demoted';
    return { kind: 'user.role', summary: `${verb} ${after.email} to ${after.role}` };
  }
  if (before.status !== after.status && after.status === 'suspended')
    return { kind: 'user.suspended', summary: `Suspended ${after.email}` };
  const changed = (Object.keys(FIELD_WORDS) as Array<keyof PublicUser>)
    .filter((field) => before[field] !== after[field])
    .map((field) => FIELD_WORDS[field]!);
  if (passwordSet) changed.push('password');
  return {
    kind: 'user.updated',
    summary: `Edited ${after.email}${changed.length ? `: ${changed.join(', ')}` : ' (no change)'}`,
  };
}
