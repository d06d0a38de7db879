import type { Role, Tier, UserStatus } from '@common/schemas/user';

export const ROLE_OPTIONS: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'user', label: 'User' },
  { value: 'admin', label: 'Admin' },
];
export const TIER_OPTIONS: ReadonlyArray<{ value: Tier; label: string }> = [
  { value: 'free', label: 'Free' },
  { value: 'paid', label: 'Paid' },
];
export const STATUS_OPTIONS: ReadonlyArray<{ value: UserStatus; label: string }> = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
];
