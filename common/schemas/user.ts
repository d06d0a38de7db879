import { z } from 'zod';
import type { PublicBilling, PublicPurchase, TierSource } from './billing';

export const ROLES = ['user', 'admin'] as const;
export const TIERS = ['free', 'paid'] as const;
export const STATUSES = ['active', 'suspended'] as const;

export type Role = (typeof ROLES)[number];
export type Tier = (typeof TIERS)[number];
export type UserStatus = (typeof STATUSES)[number];

/** The user as it leaves the server: never a password hash, a reset token or `__v`. */
export interface PublicUser {
  _id: string;
  name: string;
  email: string;
  role: Role;
  membershipTier: Tier;
  status: UserStatus;
  createdAt: string;
  updatedAt: string;
  /** Only for members who ever had a customer at the payment provider. */
  billing?: PublicBilling;
  /** When the member last became paid. */
  paidSince?: string;
  /** Why the tier is what it is: Stripe, given by hand (complimentary), or an administrator's edit. */
  tierSource?: TierSource;
  /** Courses bought on their own ("Download my data", the console's user). */
  purchases?: PublicPurchase[];
}

/** E-mail addresses are compared without regard to letter case, so they are stored lower-cased. */
export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

export const nameSchema = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters');
