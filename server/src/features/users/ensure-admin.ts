import { emailSchema } from '@common/schemas/user';
import type { FastifyBaseLogger } from 'fastify';
import { hashPassword } from '../auth/passwords';
import type { UsersRepository } from './users.repository';

/**
 * Creates the administrator named by ADMIN_EMAIL/ADMIN_PASSWORD when no user has that e-mail.
 * An existing account is left as it is: the environment never overwrites a password.
 */
export async function ensureAdmin(
  users: UsersRepository,
  admin: { email: string; password: string } | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!admin) return;
  const email = emailSchema.parse(admin.email);
  if (await users.findByEmail(email)) return;
  await users.create({
    name: 'Administrator',
    email,
    password: await hashPassword(admin.password),
    role: 'admin',
    membershipTier: 'paid',
    status: 'active',
  });
  log.info({ email }, 'Administrator account created from ADMIN_EMAIL');
}
