import { createHash, randomBytes } from 'node:crypto';
import type { LoginBody, RegisterBody } from '@common/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import { DuplicateKeyError } from '../../store/store';
import { toPublicUser, type UserDoc, type UsersRepository } from '../users/users.repository';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { resetPasswordMail } from './reset-mail';
import type { TokenService } from './token-service';

const RESET_TOKEN_BYTES = 32; // 256 random bits
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthDeps {
  users: UsersRepository;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function createAuthService({ users, tokens, mailer, publicUrl, log }: AuthDeps) {
  const issueToken = (user: UserDoc) => tokens.sign({ id: user._id, role: user.role, tv: user.tokenVersion });

  async function sendResetLink(email: string): Promise<void> {
    const user = await users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(RESET_TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MS);
    await users.update(user._id, { resetTokenHash: hashResetToken(token), resetTokenExpiresAt: expiresAt });
    const link = `${publicUrl}/reset-password/${token}`;
    // The message lives as long as its link: past that hour it is marked failed, not sent.
    await mailer.send({ ...resetPasswordMail(user.email, user.name, link), expiresAt });
    log.info({ userId: user._id }, 'Password reset link queued for sending');
  }

  return {
    async register(input: RegisterBody) {
      try {
        const user = await users.create({
          name: input.name,
          email: input.email,
          password: await hashPassword(input.password),
          role: 'user',
          membershipTier: 'free',
          status: 'active',
          tokenVersion: 0,
        });
        return { token: await issueToken(user), user: toPublicUser(user) };
      } catch (error) {
        if (error instanceof DuplicateKeyError) {
          throw new AppError('CONFLICT', 'An account with this email already exists.');
        }
        throw error;
      }
    },

    async login(input: LoginBody) {
      const user = await users.findByEmail(input.email);
      if (!user) {
        await burnPasswordCheck(input.password);
        throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password.');
      }
      if (!(await verifyPassword(user.password, input.password))) {
        throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password.');
      }
      // Told only to someone who knows the password, so it reveals nothing to a guesser.
      if (user.status === 'suspended') {
        throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended. Please contact support.');
      }
      return { token: await issueToken(user), user: toPublicUser(user) };
    },

    /**
     * Answers at once and does the work afterwards: the lookup, the token and the mail take the
     * same time whether or not the e-mail has an account, and nothing that goes wrong with them
     * (the store, a full disk, the mail server) can change the answer. The link is never logged:
     * without SMTP the owner finds it in the outbox file.
     */
    forgotPassword(email: string): void {
      setImmediate(() => {
        sendResetLink(email).catch((error: unknown) =>
          log.error({ err: error }, 'A password reset link could not be prepared or queued'),
        );
      });
    },

    async resetPassword(token: string, password: string): Promise<void> {
      const hash = hashResetToken(token);
      const user = await users.findByResetTokenHash(hash, new Date());
      const invalid = new AppError('INVALID_TOKEN', 'Password reset link is invalid or has expired.');
      if (!user) throw invalid;
      const updated = await users.updateIfResetTokenMatches(user._id, hash, {
        password: await hashPassword(password),
        tokenVersion: user.tokenVersion + 1,
        resetTokenHash: undefined,
        resetTokenExpiresAt: undefined,
      });
      if (!updated) throw invalid;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Only this hash is stored, so a copy of the database holds no usable reset link. */
function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
