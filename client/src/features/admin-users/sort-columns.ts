import type { UserSortField } from '@common/schemas/admin-users';

/** The table's sortable columns, in order; the phone's sort picker offers the same ones. */
export const SORTABLE_COLUMNS: ReadonlyArray<{ field: UserSortField; label: string }> = [
  { field: 'name', label: 'Name' },
  { field: 'email', label: 'Email' },
  { field: 'role', label: 'Role' },
  { field: 'membershipTier', label: 'Tier' },
  { field: 'status', label: 'Status' },
  { field: 'createdAt', label: 'Joined' },
];

/** A newly chosen column sorts A→Z, except Joined, which starts with the newest (SPEC: the default order). */
export const firstOrderOf = (field: UserSortField) => (field === 'createdAt' ? 'desc' : 'asc');
