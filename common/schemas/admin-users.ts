import { z } from 'zod';
import type { SessionsEndedResponse } from './account';
import { newPasswordSchema } from './auth';
import type { DataAnswer, DoneAnswer, TextFile } from './envelopes';
import { BILLING_FILTERS } from './payments';
import { emailSchema, nameSchema, type PublicUser, ROLES, STATUSES, TIERS } from './user';

/** Users per page of the console's list unless the console asks for another of USERS_PAGE_SIZES. */
export const USERS_PAGE_SIZE = 10;
/** The page sizes the list accepts (`pageSize`); anything else is refused. */
export const USERS_PAGE_SIZES = [10, 25, 50, 100] as const;
/** Longer search text than this is refused rather than turned into a long regular expression. */
export const MAX_USER_SEARCH_LENGTH = 100;

/** The only fields a list may be sorted by: the five sortable columns and the default. */
export const USER_SORT_FIELDS = ['name', 'email', 'role', 'membershipTier', 'status', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type SortOrder = 'asc' | 'desc';

const sortBy = z
  .enum(USER_SORT_FIELDS, { error: `sortBy must be one of ${USER_SORT_FIELDS.join(', ')}` })
  .default('createdAt');
const sortOrder = z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' }).default('desc');
const search = z
  .string({ error: 'search must be a string' })
  .trim()
  .max(MAX_USER_SEARCH_LENGTH, `Search text must be at most ${MAX_USER_SEARCH_LENGTH} characters`)
  .default('');

/** Members with a live subscription, a failing payment, or a paid tier given by hand (payments feature). */
const billing = z
  .enum(BILLING_FILTERS, { error: `billing must be one of ${BILLING_FILTERS.join(', ')}` })
  .optional()
  .or(z.literal('').transform(() => undefined));

/** GET /api/admin/users/export.csv: the list as it is searched and sorted, every page. */
export const userExportQuery = z.object({ search, sortBy, sortOrder, billing });

/** GET /api/admin/users. Query values arrive as text, hence the coercion of `page`. */
export const userListQuery = userExportQuery.extend({
  page: z.coerce
    .number({ error: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .max(1_000_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be 10, 25, 50 or 100' })
    .refine((n) => (USERS_PAGE_SIZES as readonly number[]).includes(n), 'pageSize must be 10, 25, 50 or 100')
    .default(USERS_PAGE_SIZE),
});
export type UserListQuery = z.infer<typeof userListQuery>;

const role = z.enum(ROLES, { error: "role must be 'user' or 'admin'" });
const membershipTier = z.enum(TIERS, { error: "membershipTier must be 'free' or 'paid'" });
const status = z.enum(STATUSES, { error: "status must be 'active' or 'suspended'" });

// z.object drops unknown keys, so `_id`, `__v`, `createdAt` or `updatedAt` in a body never reach the store.
export const createUserBody = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  role: role.default('user'),
  membershipTier: membershipTier.default('free'),
  status: status.default('active'),
});
export type CreateUserBody = z.infer<typeof createUserBody>;

export const updateUserBody = z.object({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  // The edit row starts with an empty password: empty means "leave it as it is".
  password: z
    .string({ error: 'password must be a string' })
    .transform((value) => value || undefined)
    .pipe(newPasswordSchema.optional())
    .optional(),
  role: role.optional(),
  membershipTier: membershipTier.optional(),
  status: status.optional(),
  /**
   * The administrator saw the warning that Stripe manages this member's tier (a live
   * subscription) and changes it anyway; without it such a change is refused (TIER_MANAGED_BY_STRIPE).
   */
  confirmManagedByStripe: z.boolean({ error: 'confirmManagedByStripe must be true or false' }).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userIdParam = z.object({
  id: z.string().min(1).max(64),
});

/** GET /api/admin/users */
export interface UserListResponse {
  success: true;
  data: PublicUser[];
  totalPages: number;
  currentPage: number;
  /** The matches; when `totalExact` is false, a search matches more than this (counting stopped). */
  total: number;
  totalExact: boolean;
}

export interface AdminStats {
  totalUsers: number;
  /** Members on the paid tier; administrators are not counted. */
  paidMembers: number;
  /** Members on the free tier; administrators are not counted. */
  freeMembers: number;
  administrators: number;
  /** Members who joined in the last 7 and 30 days. */
  newMembers7d: number;
  newMembers30d: number;
}

/** GET /api/admin/stats */
export type AdminStatsResponse = DataAnswer<AdminStats>;

/** POST /api/admin/users (201) and PUT /api/admin/users/:id: the user as saved. */
export type UserResponse = DataAnswer<PublicUser>;

/** DELETE /api/admin/users/:id */
export type DeleteUserResponse = DoneAnswer;

/** DELETE /api/admin/users/:id/sessions: the user is signed out of every browser and device. */
export type EndUserSessionsResponse = SessionsEndedResponse;

/** GET /api/admin/users/export.csv */
export type UsersCsvResponse = TextFile;
