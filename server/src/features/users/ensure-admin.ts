import { emailSchema } from '@common/schemas/user';
import type { FastifyBaseLogger } from 'fastify';
import { hashPassword } from './passwords';
import type { UsersRepository } from './users.repository';

/**
 * Creates the administrator named by ADMIN_EMAIL/ADMIN_PASSWORD when the store has no
 * administrator at all (the first start), and never otherwise: an administrator deleted in the
 * console stays deleted, and the environment never overwrites a password. A skip is logged.
 */
export async function ensureAdmin(
  users: UsersRepository,
  admin: { email: string; password: string } | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!admin) return;
  const email = emailSchema.parse(admin.email);
  const admins = await users.count({ role: 'admin' });
  if (admins > 0) {
    log.info(
      { email, administrators: admins },
      'ADMIN_EMAIL ignored: the store already has an administrator (it only creates the first one)',
    );
    return;
  }
  if (await users.findByEmail(email)) {
    log.warn(
      { email },
      'ADMIN_EMAIL ignored: a member already has that e-mail; no administrator was created',
    );
    return;
  }
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
